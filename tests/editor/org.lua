-- org.lua - Neovim (0.7 and later), headless, run by tests/editor/neovim-org.sh: start
-- `$MCPDESC_BIN lsp --no-config` (no --rules: the server's own search path), open the rule
-- file $LSP_RULEFILE of an org set that extends a release by tag, wait for its
-- diagnostics and write them (0-based lines, byte columns) to $LSP_OUT. Exits 0, or 1
-- with a message on stderr.
local env = vim.env
local function fail(msg)
  io.stderr:write('neovim org test: ' .. msg .. '\n')
  vim.cmd('cquit 1')
end
local received = 0
local publish = vim.lsp.handlers['textDocument/publishDiagnostics']
vim.lsp.handlers['textDocument/publishDiagnostics'] = function(err, result, ctx, config)
  received = received + 1
  return publish(err, result, ctx, config)
end
local id = vim.lsp.start_client({
  name = 'mcpdesc',
  cmd = { env.MCPDESC_BIN, 'lsp', '--no-config' },
  root_dir = env.LSP_ROOT,
  init_options = { debounceMs = 0 },
})
if not id then fail('vim.lsp.start_client failed') end
vim.cmd('edit ' .. vim.fn.fnameescape(env.LSP_RULEFILE))
local buf = vim.api.nvim_get_current_buf()
if not vim.lsp.buf_attach_client(buf, id) then fail('buf_attach_client failed') end
if not vim.wait(15000, function() return received > 0 end, 20) then
  fail('timed out after 15 s waiting for the rule file\'s diagnostics')
end
local ds = vim.diagnostic.get(buf)
table.sort(ds, function(x, y)
  if x.lnum ~= y.lnum then return x.lnum < y.lnum end
  return x.col < y.col
end)
local lines = { string.format('org rule file: %d diagnostics', #ds) }
for _, d in ipairs(ds) do
  table.insert(lines, string.format('%d:%d-%d:%d severity=%d %s', d.lnum, d.col, d.end_lnum,
    d.end_col, d.severity, d.message))
end
local f = io.open(env.LSP_OUT, 'w')
f:write(table.concat(lines, '\n') .. '\n')
f:close()
vim.cmd('qall!')
