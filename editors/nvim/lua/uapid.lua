-- SPDX-License-Identifier: GPL-2.0-or-later
-- uapid.lua: the Neovim side of uapid's editor integration.
--
-- For each header in a tree that a uapid daemon watches (found the way
-- `uapictl sockname FILE` finds it), one `uapictl lsp` client per tree is
-- started with vim.lsp.start_client (Neovim 0.7 has no vim.lsp.start).  It
-- gives diagnostics (split blockers, retained __KERNEL__ conditionals,
-- header-check findings), hover, code actions (coaching markers, preview)
-- and the `uapid/regions` notification, drawn here:
--   UapidKernelOnly  lines only the kernel header keeps (dimmed: Comment)
--   UapidUserOnly    "userspace only" after the first line of what only userspace sees
--                    (and "kernel only", in UapidKernelOnly, after an `#ifdef __KERNEL__`
--                    line that opens kernel-only code: the split rewrites it)
--   UapidRetained    a mark after __KERNEL__ conditionals kept unsplit
-- Override them with :highlight like any group.
-- Commands: :UapidPreview (the kernel, uapi and installed texts of the
-- split of the buffer as it is now), :UapidStatus (the daemon's state).
local M = {}

M.config = {
  cmd = 'uapictl', -- the uapictl to run
  pattern = { '*.h' }, -- buffers to consider
  timeout = 2, -- seconds for uapictl to find and ask the daemon
  -- what a uapi header's API diagnostics compare the buffer with: a git revision of the
  -- tree's repository (nil: the bridge's default, HEAD; 'v6.12', 'origin/master'), or
  -- 'installed' (the last save); they are updated when the revision moves
  baseline = nil,
  accept = nil, -- an accept file of decided breaks (relative to the tree), e.g. 'uapi-accepted'
}

M.ns = vim.api.nvim_create_namespace('uapid')
local clients = {} -- tree -> client id

local function set_highlights()
  vim.cmd('highlight default link UapidKernelOnly Comment')
  vim.cmd('highlight default link UapidUserOnly DiagnosticHint')
  vim.cmd('highlight default link UapidRetained DiagnosticWarn')
end

-- The daemon for a file: { socket = ..., tree = ... }, or nil when none.
function M.find(file)
  local out = vim.fn.system({ M.config.cmd, '--timeout', tostring(M.config.timeout), '--json',
    'sockname', file })
  if vim.v.shell_error ~= 0 then
    return nil
  end
  local ok, r = pcall(vim.fn.json_decode, out)
  if not ok or type(r) ~= 'table' or not r.tree then
    return nil
  end
  return r
end

-- Draws the regions the bridge sent for a buffer.
local function draw(bufnr, regions)
  if not vim.api.nvim_buf_is_loaded(bufnr) then
    return
  end
  vim.api.nvim_buf_clear_namespace(bufnr, M.ns, 0, -1)
  local last = vim.api.nvim_buf_line_count(bufnr) - 1
  for _, r in ipairs(regions) do
    local first, final = r.range.start.line, math.min(r.range['end'].line, last)
    for l = first, final do
      if r.class == 'kernel' then
        vim.api.nvim_buf_set_extmark(bufnr, M.ns, l, 0,
          { end_row = l + 1, end_col = 0, hl_group = 'UapidKernelOnly', hl_eol = true,
            priority = 150, strict = false })
      elseif l == first then
        -- what a reader sees the region as: an `#ifdef __KERNEL__` opens kernel-only
        -- code; an #else or #endif the split rewrites has no label (its hover says)
        local label = r.label
        if label == nil then -- a bridge older than labels
          label = r.class == 'retained' and 'retained' or 'userspace only'
        end
        if label ~= '' then
          local group = r.class == 'retained' and 'UapidRetained' or
              (label == 'kernel only' and 'UapidKernelOnly' or 'UapidUserOnly')
          vim.api.nvim_buf_set_extmark(bufnr, M.ns, l, 0,
            { virt_text = { { ' ' .. label, group } }, virt_text_pos = 'eol', strict = false })
        end
      end
    end
  end
  vim.b[bufnr].uapid_regions = regions
end

local handlers = {
  ['uapid/regions'] = function(_, params)
    local bufnr = vim.uri_to_bufnr(params.textDocument.uri)
    vim.b[bufnr].uapid_outcome = params.outcome
    draw(bufnr, params.regions)
  end,
}

-- Starts (once per tree) the bridge and attaches the buffer to it.
function M.attach(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local file = vim.api.nvim_buf_get_name(bufnr)
  if file == '' or vim.b[bufnr].uapid_checked then
    return
  end
  vim.b[bufnr].uapid_checked = true
  local found = M.find(file)
  if not found then
    return -- no daemon for this tree: stay out of the way
  end
  local id = clients[found.tree]
  if id == nil or vim.lsp.get_client_by_id(id) == nil then
    id = vim.lsp.start_client({
      name = 'uapid',
      cmd = { M.config.cmd, 'lsp' },
      root_dir = found.tree,
      init_options = { baseline = M.config.baseline, accept = M.config.accept },
      handlers = handlers,
      on_exit = function()
        clients[found.tree] = nil
      end,
    })
    if id == nil then
      return
    end
    clients[found.tree] = id
  end
  vim.lsp.buf_attach_client(bufnr, id)
  vim.b[bufnr].uapid_client = id
end

local function client_of(bufnr)
  local id = vim.b[bufnr].uapid_client
  local client = id and vim.lsp.get_client_by_id(id)
  if not client then
    vim.notify('uapid: no daemon serves this buffer (start one with `uapid watch TREE`)',
      vim.log.levels.WARN)
  end
  return client
end

local function scratch(name, text)
  local buf = vim.api.nvim_create_buf(false, true)
  vim.api.nvim_buf_set_name(buf, name)
  local lines = vim.split(text or '(none)', '\n', { plain = true })
  if lines[#lines] == '' then
    table.remove(lines)
  end
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.bo[buf].filetype = 'c'
  vim.bo[buf].modifiable = false
  return buf
end

-- Shows the split of the buffer as it is now, in a new tab: kernel | uapi (| installed).
function M.preview(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local client = client_of(bufnr)
  if not client then
    return
  end
  local path = vim.api.nvim_buf_get_name(bufnr)
  local args = { { uri = vim.uri_from_bufnr(bufnr), path = path } }
  client.request('workspace/executeCommand', { command = 'uapid.preview', arguments = args },
    function(err, r)
      if err or not r then
        vim.notify('uapid: preview: ' .. (err and err.message or 'no answer'), vim.log.levels.ERROR)
        return
      end
      vim.cmd('tabnew')
      local first = true
      local function show(name, text)
        if not first then
          vim.cmd('vsplit')
        end
        first = false
        vim.api.nvim_win_set_buf(0, scratch(name, text))
      end
      if r.outcome ~= 'uapi' then
        show('uapid://kernel/' .. r.path, r.kernel)
      end
      show('uapid://uapi/' .. (r.uapi_path or r.path), r.uapi)
      if type(r.installed) == 'table' then
        show('uapid://installed/' .. r.installed.path, r.installed.text)
      end
      vim.t.uapid_preview = r
    end, bufnr)
end

function M.status(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local client = client_of(bufnr)
  if not client then
    return
  end
  client.request('workspace/executeCommand', { command = 'uapid.status',
    arguments = { { uri = vim.uri_from_bufnr(bufnr), path = vim.api.nvim_buf_get_name(bufnr) } } },
    function(err, r)
      if err or not r then
        vim.notify('uapid: status: ' .. (err and err.message or 'no answer'), vim.log.levels.ERROR)
        return
      end
      vim.g.uapid_status = r
      vim.notify(string.format('uapid: %s: %s', r.tree, r.summary or ''), vim.log.levels.INFO)
    end, bufnr)
end

function M.setup(opts)
  M.config = vim.tbl_extend('force', M.config, opts or {})
  set_highlights()
  local group = vim.api.nvim_create_augroup('uapid', { clear = true })
  vim.api.nvim_create_autocmd({ 'BufReadPost', 'BufNewFile' }, {
    group = group,
    pattern = M.config.pattern,
    callback = function(ev)
      M.attach(ev.buf)
    end,
  })
  vim.api.nvim_create_autocmd('ColorScheme', { group = group, callback = set_highlights })
  vim.api.nvim_create_user_command('UapidPreview', function()
    M.preview(0)
  end, { desc = 'uapid: show the split of this buffer' })
  vim.api.nvim_create_user_command('UapidStatus', function()
    M.status(0)
  end, { desc = "uapid: the daemon's state" })
end

return M
