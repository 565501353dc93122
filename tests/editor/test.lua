-- test.lua - Neovim (0.7 and later) as a real client of `mcpdesc lsp`, run headless by
-- tests/editor/neovim.sh: start the server with vim.lsp.start_client, open a description
-- with findings and a rule file, attach both buffers, wait for the diagnostics of each,
-- and write what Neovim received (vim.diagnostic.get, positions as Neovim holds them:
-- 0-based lines, byte columns) to $LSP_OUT; then ask for the code actions at each of the
-- description's diagnostics, apply the first quick fix with
-- vim.lsp.util.apply_workspace_edit, write the buffer to $LSP_FIXED and wait for the fixed
-- finding to go. Exits 0, or 1 with a message on stderr (a timeout names what did not
-- arrive).
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

-- The quick fix: ask for the code actions at each description diagnostic, in order (the
-- first is reached through a $componentRef: no fix is offered there), apply the first
-- "quickfix" offered with vim.lsp.util.apply_workspace_edit(edit, 'utf-16') (its line
-- has non-ASCII text before the edit), write the buffer to $LSP_FIXED (compared with
-- tests/editor/expected-fixed.json), and wait for the diagnostics published after the
-- change: the fixed finding is gone.
local ds = vim.diagnostic.get(desc)
table.sort(ds, function(x, y)
  if x.lnum ~= y.lnum then return x.lnum < y.lnum end
  return x.col < y.col
end)
local fix = nil
for _, d in ipairs(ds) do
  -- Neovim holds byte columns; the server counts UTF-16 code units (line 8 has an
  -- emoji before the finding)
  local text = vim.api.nvim_buf_get_lines(desc, d.lnum, d.lnum + 1, false)[1] or ''
  local function u16(col) return select(2, vim.str_utfindex(text, math.min(col, #text))) end
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(desc) },
    range = { start = { line = d.lnum, character = u16(d.col) }, ['end'] = { line = d.end_lnum, character = u16(d.end_col) } },
    context = { diagnostics = {} },
  }
  local res = vim.lsp.buf_request_sync(desc, 'textDocument/codeAction', params, 10000)
  if not res or not res[id] then fail(string.format('no answer to textDocument/codeAction at %d:%d', d.lnum, d.col)) end
  local e = res[id].error or res[id].err
  if e then fail('textDocument/codeAction failed: ' .. vim.inspect(e)) end
  local quick = {}
  for _, a in ipairs(res[id].result or {}) do
    if a.kind == 'quickfix' and a.edit and not string.find(a.title, '^Suppress ') then table.insert(quick, a) end
  end
  table.insert(lines, string.format('code actions at %d:%d: %d quick fix%s%s', d.lnum, d.col, #quick,
    #quick == 1 and '' or 'es', #quick > 0 and (' (' .. quick[1].title .. ')') or ''))
  if #quick > 0 and not fix then fix = quick[1] end
end
if not fix then fail('no quick fix offered at any description diagnostic') end

local before = received[vim.uri_from_bufnr(desc)] or 0
vim.lsp.util.apply_workspace_edit(fix.edit, 'utf-16')
local fixed = io.open(env.LSP_FIXED, 'w')
fixed:write(table.concat(vim.api.nvim_buf_get_lines(desc, 0, -1, false), '\n') .. '\n')
fixed:close()
local function fixed_gone()
  if (received[vim.uri_from_bufnr(desc)] or 0) <= before then return false end
  return #vim.diagnostic.get(desc) == #ds - 1
end
if not vim.wait(15000, fixed_gone, 20) then
  fail(string.format('timed out after 15 s waiting for the diagnostics after the quick fix (%d publish(es) since, %d diagnostics, want %d)',
    (received[vim.uri_from_bufnr(desc)] or 0) - before, #vim.diagnostic.get(desc), #ds - 1))
end
table.insert(lines, string.format('after the quick fix: %d diagnostics', #vim.diagnostic.get(desc)))

local f = io.open(out_path, 'w')
f:write(table.concat(lines, '\n') .. '\n')
f:close()

vim.lsp.stop_client(id)
vim.wait(5000, function() return exited ~= nil end, 20)
vim.cmd('qall!')
