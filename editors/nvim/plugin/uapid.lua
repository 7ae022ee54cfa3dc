-- SPDX-License-Identifier: GPL-2.0-or-later
-- uapid for Neovim: starts `uapictl lsp` for C headers in a tree a uapid
-- daemon watches.  Set vim.g.uapid_no_auto = 1 before this runs to call
-- require('uapid').setup{...} yourself.
if vim.g.loaded_uapid then
  return
end
vim.g.loaded_uapid = 1
if vim.g.uapid_no_auto ~= 1 then
  require('uapid').setup()
end
