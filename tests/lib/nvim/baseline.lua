-- SPDX-License-Identifier: GPL-2.0-or-later
-- Headless Neovim, editors/nvim and a real `uapid watch` on a git tree: a breaking
-- edit of a uapi header flagged after :write, against HEAD (the bridge's default
-- baseline), and gone once it is committed.  Run by tests/cli/cli-editors-baseline.sh:
--   UAPID_TEST_FILE=TREE/include/uapi/linux/mini.h nvim --headless -u NONE -i NONE \
--     --cmd 'set rtp^=editors/nvim' -c 'luafile tests/lib/nvim/baseline.lua'
-- Prints "ok - ..." / "not ok - ..." and "N failed"; exits 1 when a check fails.
local file = os.getenv('UAPID_TEST_FILE')
local failed = 0
local function check(cond, what)
  io.stdout:write((cond and 'ok - ' or 'not ok - ') .. what .. '\n')
  if not cond then
    failed = failed + 1
  end
end

local ok, err = xpcall(function()
  vim.cmd('edit ' .. vim.fn.fnameescape(file))
  local buf = vim.api.nvim_get_current_buf()
  check(vim.b[buf].uapid_client ~= nil, 'the bridge is attached to the uapi header')
  local function api_messages()
    local out = {}
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      if d.code == 'api' then
        out[#out + 1] = d.message
      end
    end
    return out
  end
  local function flagged()
    for _, m in ipairs(api_messages()) do
      if m:find('breaking userspace API change since HEAD: struct mini_req', 1, true) then
        return true
      end
    end
    return false
  end
  -- the bridge has answered for the file as it is: the regions notification came
  vim.wait(10000, function() return vim.b[buf].uapid_outcome ~= nil end, 20)
  check(#api_messages() == 0, 'opened as HEAD has it: no API diagnostic')

  -- remove a member of struct mini_req and save
  local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  local at
  for i, l in ipairs(lines) do
    if l:match('__u64 addr;') then at = i end
  end
  check(at ~= nil, 'the fixture has struct mini_req.addr')
  vim.api.nvim_buf_set_lines(buf, at - 1, at, false, {})
  vim.cmd('write')
  vim.wait(15000, flagged, 50)
  check(flagged(), 'after :write, the removed member is flagged as breaking since HEAD (' ..
    vim.inspect(api_messages()) .. ')')
  -- a few seconds on, still there: the saved file is not the baseline
  vim.wait(3000, function() return not flagged() end, 50)
  check(flagged(), 'still flagged after the daemon installed the saved header')

  -- committed: HEAD moves, and the diagnostic goes without touching the buffer
  vim.fn.system({ 'git', '-C', vim.fn.fnamemodify(file, ':h:h:h:h'), '-c', 'user.email=t@uapid',
    '-c', 'user.name=t', 'commit', '-q', '-am', 'drop mini_req.addr' })
  check(vim.v.shell_error == 0, 'git commit')
  vim.wait(20000, function() return #api_messages() == 0 end, 50)
  check(#api_messages() == 0, 'after the commit, nothing flagged (' .. vim.inspect(api_messages()) .. ')')
end, debug.traceback)
if not ok then
  io.stdout:write('not ok - the test script failed: ' .. tostring(err) .. '\n')
  failed = failed + 1
end
io.stdout:write(failed .. ' failed\n')
vim.cmd((failed == 0) and 'qa!' or 'cquit! 1')
