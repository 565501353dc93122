-- test.lua - Neovim (0.7 and later) as a real client of `mcpdesc lsp`, run headless by
-- tests/editor/neovim.sh: start the server with vim.lsp.start_client, open a description
-- with findings and a rule file, attach both buffers, wait for the diagnostics of each,
-- and write what Neovim received (vim.diagnostic.get, positions as Neovim holds them:
-- 0-based lines, byte columns) to $LSP_OUT. Exits 0, or 1 with a message on stderr
-- (a timeout names what did not arrive).
local env = vim.env
local out_path = env.LSP_OUT
local function fail(msg)
  io.stderr:write('neovim test: ' .. msg .. '\n')
  vim.cmd('cquit 1')
end

local received = {} -- uri -> number of publishDiagnostics seen
local publish = vim.lsp.handlers['textDocument/publishDiagnostics']
vim.lsp.handlers['textDocument/publishDiagnostics'] = function(err, result, ctx, config)
  received[result.uri] = (received[result.uri] or 0) + 1
  return publish(err, result, ctx, config)
end

local exited = nil
local id = vim.lsp.start_client({
  name = 'mcpdesc',
  cmd = { env.MCPDESC_BIN, 'lsp', '--rules', env.LSP_RULES, '--no-config' },
  root_dir = env.LSP_ROOT,
  init_options = { debounceMs = 0 },
  on_exit = function(code) exited = code end,
})
if not id then fail('vim.lsp.start_client failed') end

local function open(path)
  vim.cmd('edit ' .. vim.fn.fnameescape(path))
  local buf = vim.api.nvim_get_current_buf()
  if not vim.lsp.buf_attach_client(buf, id) then fail('buf_attach_client failed for ' .. path) end
  return buf
end
local desc = open(env.LSP_DESC)
local rules = open(env.LSP_RULEFILE)

local function got(buf)
  return (received[vim.uri_from_bufnr(buf)] or 0) > 0
end
if not vim.wait(15000, function() return got(desc) and got(rules) end, 20) then
  fail(string.format('timed out after 15 s waiting for diagnostics (description: %s, rule file: %s)',
    got(desc) and 'received' or 'none', got(rules) and 'received' or 'none'))
end

local lines = {}
for _, b in ipairs({ { 'description', desc }, { 'rule file', rules } }) do
  local ds = vim.diagnostic.get(b[2])
  table.sort(ds, function(x, y)
    if x.lnum ~= y.lnum then return x.lnum < y.lnum end
    if x.col ~= y.col then return x.col < y.col end
    return tostring(x.code) < tostring(y.code)
  end)
  table.insert(lines, string.format('%s: %d diagnostics', b[1], #ds))
  for _, d in ipairs(ds) do
    table.insert(lines, string.format('%d:%d-%d:%d severity=%d source=%s code=%s %s', d.lnum, d.col,
      d.end_lnum, d.end_col, d.severity, tostring(d.source), tostring(d.code), d.message))
  end
end

-- HOOK quick-fix (after h19fix's code actions are merged): request textDocument/codeAction
-- for the description's first diagnostic, apply the "quickfix" edit with
-- vim.lsp.util.apply_workspace_edit(edit, 'utf-16'), and append the buffer's lines to LINES
-- so that the expected file holds the fixed text.

local f = io.open(out_path, 'w')
f:write(table.concat(lines, '\n') .. '\n')
f:close()

vim.lsp.stop_client(id)
vim.wait(5000, function() return exited ~= nil end, 20)
vim.cmd('qall!')
