;;; baseline.el --- Emacs (eglot) with `uapictl lsp' and a real `uapid watch'  -*- lexical-binding: t -*-
;; SPDX-License-Identifier: GPL-2.0-or-later
;;
;; Run by tests/cli/cli-editors-baseline.sh:
;;   UAPID_TEST_FILE=TREE/include/uapi/linux/mini.h UAPICTL=.../uapictl \
;;     emacs --batch -l tests/lib/emacs/baseline.el
;; Opens a uapi header of a git tree that a daemon watches, with eglot
;; running `uapictl lsp' as editors/README.md says, removes a member of
;; struct mini_req and saves: flymake must show the break as "breaking
;; userspace API change since HEAD", still after the daemon installed the
;; saved file, and nothing once it is committed (HEAD moved).  Prints
;; "ok - ..." / "not ok - ..." and "N failed"; exits 1 when a check fails.

(require 'eglot)
(require 'flymake)
(require 'cl-lib)

(defvar uapid-test-failed 0)
(defun uapid-test-check (ok what)
  (princ (format "%s - %s\n" (if ok "ok" "not ok") what))
  (unless ok (setq uapid-test-failed (1+ uapid-test-failed))))

(defun uapid-test-api-messages ()
  "The texts of the buffer's diagnostics that speak of the userspace API."
  (cl-loop for d in (flymake-diagnostics)
           for text = (flymake-diagnostic-text d)
           when (string-match-p "userspace API change" text) collect text))

(defun uapid-test-flagged ()
  (cl-some (lambda (m) (string-match-p
                        "breaking userspace API change since HEAD: struct mini_req" m))
           (uapid-test-api-messages)))

(defun uapid-test-wait (pred seconds)
  "Runs the event loop (the server's output, eglot's and flymake's timers) until PRED or SECONDS."
  (let ((end (+ (float-time) seconds)))
    (while (and (not (funcall pred)) (< (float-time) end))
      (accept-process-output nil 0.1)
      (when (and flymake-mode (not (flymake-running-backends)))
        (flymake-start)))
    (funcall pred)))

(let* ((file (getenv "UAPID_TEST_FILE"))
       (tree (file-name-as-directory
              (expand-file-name "../../.." (file-name-directory file))))
       (eglot-server-programs `((c-mode . (,(getenv "UAPICTL") "lsp"))))
       (eglot-send-changes-idle-time 0.1)
       (flymake-no-changes-timeout 0.2)
       server)
  (condition-case err
      (progn
        (find-file file)
        (c-mode)
        (setq server (eglot '(c-mode) (project-current nil tree) 'eglot-lsp-server
                            (list (getenv "UAPICTL") "lsp") "c"))
        (uapid-test-check (eglot-current-server) "eglot runs uapictl lsp for the uapi header")
        (uapid-test-check (not (uapid-test-wait #'uapid-test-api-messages 3))
                          "opened as HEAD has it: no API diagnostic")
        (goto-char (point-min))
        (uapid-test-check (search-forward "__u64 addr;" nil t) "the fixture has struct mini_req.addr")
        (delete-region (line-beginning-position) (1+ (line-end-position)))
        (save-buffer)
        (uapid-test-check (uapid-test-wait #'uapid-test-flagged 20)
                          (format "after save, flymake shows the removed member as breaking since HEAD %S"
                                  (uapid-test-api-messages)))
        (uapid-test-wait (lambda () (not (uapid-test-flagged))) 3)
        (uapid-test-check (uapid-test-flagged)
                          "still flagged after the daemon installed the saved header")
        (uapid-test-check
         (eq 0 (call-process "git" nil nil nil "-C" tree "-c" "user.email=t@uapid" "-c" "user.name=t"
                             "commit" "-q" "-am" "drop mini_req.addr"))
         "git commit")
        (uapid-test-check (uapid-test-wait (lambda () (null (uapid-test-api-messages))) 20)
                          (format "after the commit, nothing flagged %S" (uapid-test-api-messages)))
        (let ((proc (jsonrpc--process server)))
          (eglot-shutdown server)
          (uapid-test-check (not (process-live-p proc)) "uapictl lsp exits with eglot's shutdown")))
    (error (uapid-test-check nil (format "the test script failed: %S" err)))))
(princ (format "%d failed\n" uapid-test-failed))
(kill-emacs (if (= uapid-test-failed 0) 0 1))
