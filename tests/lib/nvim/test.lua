-- SPDX-License-Identifier: GPL-2.0-or-later
-- Headless Neovim test of editors/nvim with a real `uapid watch`.
-- Run by tests/cli/cli-editors.sh:
--   UAPID_TEST_FILE=TREE/include/linux/sample_arch.h nvim --headless -u NONE -i NONE \
--     --cmd 'set rtp^=editors/nvim' -c 'luafile tests/lib/nvim/test.lua'
-- Opens a header that needs coaching, checks the diagnostics and the
-- dimmed kernel-only lines, edits the buffer to remove the blocker and
-- checks that both follow, then :UapidPreview and :UapidStatus.  Exits 0
-- when every check holds, 1 (naming what failed) otherwise.
local file = os.getenv('UAPID_TEST_FILE')
local failed = 0
local function check(cond, what)
  io.stdout:write((cond and 'ok - ' or 'not ok - ') .. what .. '\n')
  if not cond then
    failed = failed + 1
  end
end
local function finish()
  io.stdout:write(failed .. ' failed\n')
  vim.cmd((failed == 0) and 'qa!' or 'cquit! 1')
end

local ok, err = xpcall(function()
  check(vim.fn.exists(':UapidPreview') == 2 and vim.fn.exists(':UapidStatus') == 2,
    'the plugin defines :UapidPreview and :UapidStatus')
  vim.cmd('edit ' .. vim.fn.fnameescape(file))
  local buf = vim.api.nvim_get_current_buf()
  check(vim.b[buf].uapid_client ~= nil, 'the bridge is attached to the header')

  local function errors()
    return vim.diagnostic.get(buf, { severity = vim.diagnostic.severity.ERROR })
  end
  vim.wait(10000, function() return #errors() > 0 end, 20)
  local e = errors()
  check(#e == 1 and e[1].lnum == 4 and e[1].message:find('#elif', 1, true) ~= nil,
    'diagnostics: the #elif blocker on line 5')

  local function dimmed()
    local lines = {}
    for _, m in ipairs(vim.api.nvim_buf_get_extmarks(buf, require('uapid').ns, 0, -1,
      { details = true })) do
      if m[4].hl_group == 'UapidKernelOnly' then
        lines[#lines + 1] = m[2]
      end
    end
    return lines
  end
  vim.wait(5000, function() return #dimmed() > 0 end, 20)
  check(vim.deep_equal(dimmed(), { 4 }), 'the kernel-only line 5 is dimmed (' ..
    vim.inspect(dimmed()) .. ')')
  check(vim.fn.hlexists('UapidKernelOnly') == 1 and
    vim.fn.synIDattr(vim.fn.synIDtrans(vim.fn.hlID('UapidKernelOnly')), 'name') == 'Comment',
    'UapidKernelOnly links to Comment by default')
  check(vim.b[buf].uapid_outcome == 'needs-coaching', 'outcome: needs-coaching')

  -- edit: a kernel-only line and a nested conditional instead of the #elif; nothing saved
  local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  local at
  for i, l in ipairs(lines) do
    if l:match('^#elif') then at = i end
  end
  check(at ~= nil, 'the fixture has an #elif')
  vim.api.nvim_buf_set_lines(buf, at - 1, at + 2, false,
    { '#define SAMPLE_NEW 1', '#else', '#if defined(SAMPLE_LEGACY)', '#define SAMPLE_OLD 1',
      '#endif', '#endif' })
  vim.wait(10000, function() return #errors() == 0 and vim.b[buf].uapid_outcome == 'split' end, 20)
  check(#errors() == 0, 'after the edit the blocker is gone')
  check(vim.b[buf].uapid_outcome == 'split', 'after the edit the header splits')
  vim.wait(5000, function() return vim.deep_equal(dimmed(), { 4, 5 }) end, 20)
  check(vim.deep_equal(dimmed(), { 4, 5 }),
    'after the edit the kernel-only lines are dimmed (' .. vim.inspect(dimmed()) .. ')')

  vim.cmd('UapidPreview')
  vim.wait(10000, function() return vim.t.uapid_preview ~= nil end, 20)
  local p = vim.t.uapid_preview
  check(p ~= nil and p.outcome == 'split', ':UapidPreview shows the split of the unsaved buffer')
  local names = {}
  for _, w in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
    names[#names + 1] = vim.api.nvim_buf_get_name(vim.api.nvim_win_get_buf(w))
  end
  local joined = table.concat(names, ' ')
  check(joined:find('uapid://kernel/include/linux/sample_arch.h', 1, true) ~= nil and
    joined:find('uapid://uapi/include/uapi/linux/sample_arch.h', 1, true) ~= nil,
    'the preview tab has the kernel and uapi texts (' .. joined .. ')')
  local uapi_text
  for _, w in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
    local b = vim.api.nvim_win_get_buf(w)
    if vim.api.nvim_buf_get_name(b):find('uapid://uapi/', 1, true) then
      uapi_text = table.concat(vim.api.nvim_buf_get_lines(b, 0, -1, false), '\n')
    end
  end
  check(uapi_text ~= nil and uapi_text:find('_UAPI_LINUX_SAMPLE_ARCH_H', 1, true) ~= nil and
    uapi_text:find('SAMPLE_OLD', 1, true) ~= nil, 'the uapi text has the _UAPI guard and the user part')
  check(io.open(file):read('*a'):find('#elif', 1, true) ~= nil, 'the file on disk is untouched')

  vim.cmd('tabclose')
  check(vim.api.nvim_get_current_buf() == buf, 'back in the header')
  -- a uapi header: a value changed in the buffer is a breaking API change, on its line
  local ufile = os.getenv('UAPID_TEST_UAPI_FILE')
  if ufile then
    vim.cmd('edit ' .. vim.fn.fnameescape(ufile))
    local ubuf = vim.api.nvim_get_current_buf()
    local ulines = vim.api.nvim_buf_get_lines(ubuf, 0, -1, false)
    local at
    for i, l in ipairs(ulines) do
      if l == '#define MINI_PLAIN_API 1' then at = i end
    end
    check(at ~= nil, 'the uapi fixture has MINI_PLAIN_API')
    vim.wait(5000, function() return vim.b[ubuf].uapid_client ~= nil end, 20)
    vim.api.nvim_buf_set_lines(ubuf, at - 1, at, false, { '#define MINI_PLAIN_API 2' })
    local function api_diags()
      local out = {}
      for _, dg in ipairs(vim.diagnostic.get(ubuf)) do
        if dg.message:find('breaking userspace API change', 1, true) then
          out[#out + 1] = dg
        end
      end
      return out
    end
    vim.wait(10000, function() return #api_diags() > 0 end, 20)
    local ad = api_diags()
    check(#ad == 1 and ad[1].lnum == at - 1 and ad[1].message:find('MINI_PLAIN_API', 1, true) ~= nil,
      'a breaking API change shows on the line that made it (' .. vim.inspect(ad) .. ')')
    vim.cmd('buffer ' .. buf)
  end

  -- the labels a reader sees: `#ifdef __KERNEL__` opens kernel-only code; its #else
  -- branch is userspace-only; the #endif the split rewrites has no label
  local ifile = os.getenv('UAPID_TEST_IOCTL_FILE')
  if ifile then
    vim.cmd('edit ' .. vim.fn.fnameescape(ifile))
    local ibuf = vim.api.nvim_get_current_buf()
    local ilines = vim.api.nvim_buf_get_lines(ibuf, 0, -1, false)
    local function at(prefix)
      for i, l in ipairs(ilines) do
        if l:sub(1, #prefix) == prefix then return i - 1 end
      end
    end
    local function labels()
      local out = {}
      for _, m in ipairs(vim.api.nvim_buf_get_extmarks(ibuf, require('uapid').ns, 0, -1,
        { details = true })) do
        if m[4].virt_text then
          out[m[2]] = m[4].virt_text[1][1]
        end
      end
      return out
    end
    vim.wait(10000, function() return next(labels()) ~= nil end, 20)
    local lb = labels()
    local want = { [at('#ifdef __KERNEL__')] = ' kernel only', [at('#include <stdint.h>')] = ' userspace only' }
    check(vim.deep_equal(lb, want), 'sample_ioctl.h: "kernel only" on #ifdef __KERNEL__, ' ..
      '"userspace only" on its #else branch, nothing on #else and #endif (' .. vim.inspect(lb) .. ')')
    vim.cmd('buffer ' .. buf)
  end

  vim.cmd('UapidStatus')
  vim.wait(5000, function() return vim.g.uapid_status ~= nil end, 20)
  check(vim.g.uapid_status ~= nil and vim.g.uapid_status.ready == true, ':UapidStatus asks the daemon')
end, debug.traceback)
if not ok then
  io.stdout:write('not ok - the test script failed: ' .. tostring(err) .. '\n')
  failed = failed + 1
end
finish()
