-- The editor test of `ctrllint lsp`, run by hack/lsp/e2e.sh in a headless
-- Neovim configured by hack/lsp/init.lua, on a copy of the tombstonefix
-- fixture in $LSP_E2E_DIR:
--
--   open handlers.go, wait for ctrllint's diagnostics and check them;
--   ask for the code actions at the first one, apply the quick fix, save;
--   wait for the diagnostics of the saved file (one left), fix and save it;
--   compare the file with handlers.go.golden (ctrllint -fix's result);
--   time a few saves (didSave to publishDiagnostics);
--   stop the client, which sends shutdown and exit, and wait for the server
--   to end (e2e.sh checks its exit status).
--
-- Any failed check exits Neovim with status 1.

local dir = assert(vim.env.LSP_E2E_DIR, 'LSP_E2E_DIR is not set')
local file = dir .. '/tombstonefix/handlers.go'
local golden = dir .. '/tombstonefix/handlers.go.golden'
local timeout = 60000 -- ms; the first load of a package can be slow on a cold build cache

local h = dofile('hack/lsp/harness.lua')('lsp-e2e', timeout)
local say, check, wait = h.say, h.check, h.wait

-- What the server sends, recorded by wrapping the default handlers.
local published = {} -- uri -> number of publishDiagnostics
local published_at = {} -- uri -> time of the last one (ns)
local on_publish = vim.lsp.handlers['textDocument/publishDiagnostics']
vim.lsp.handlers['textDocument/publishDiagnostics'] = function(err, result, ctx, config)
  published[result.uri] = (published[result.uri] or 0) + 1
  published_at[result.uri] = vim.loop.hrtime()
  return on_publish(err, result, ctx, config)
end

local function diagnostics(bufnr)
  local ds = vim.diagnostic.get(bufnr)
  table.sort(ds, function(a, b)
    return a.lnum < b.lnum
  end)
  return ds
end

-- Saves the buffer and waits for the diagnostics that follow; returns the
-- time from the save (didSave is sent by :write) to their arrival, in ms.
local function save_and_wait(bufnr, uri)
  local n = published[uri] or 0
  local t0 = vim.loop.hrtime()
  vim.cmd('silent write')
  wait('diagnostics after saving', function()
    return (published[uri] or 0) > n
  end)
  return (published_at[uri] - t0) / 1e6
end

-- Requests the code actions at a diagnostic and applies its one quick fix.
local function apply_quick_fix(bufnr, client, d, want_title)
  local actions = h.code_actions(bufnr, d)
  check(#actions == 1, 'want 1 code action at line ' .. (d.lnum + 1) .. ', got ' .. vim.inspect(actions))
  local a = actions[1]
  check(a.kind == 'quickfix' and a.title == want_title and a.edit, 'code action ' .. vim.inspect(a))
  vim.lsp.util.apply_workspace_edit(a.edit, client.offset_encoding or 'utf-16')
  say(string.format('applied "%s" at line %d', a.title, d.lnum + 1))
end

local function read(path)
  local f = assert(io.open(path, 'rb'))
  local s = f:read('*a')
  f:close()
  return s
end

local function main()
  vim.cmd('edit ' .. vim.fn.fnameescape(file))
  local bufnr = vim.api.nvim_get_current_buf()
  local uri = vim.uri_from_bufnr(bufnr)
  local client
  wait('ctrllint to attach', function()
    client = vim.lsp.get_active_clients()[1]
    return client ~= nil and client.initialized
  end)
  check(client.name == 'ctrllint', 'client ' .. client.name)

  -- Opening the file analyses its package; every file of it gets its
  -- diagnostics.
  local t0 = vim.loop.hrtime()
  local register = vim.uri_from_fname(dir .. '/tombstonefix/register.go')
  wait('diagnostics of handlers.go and register.go', function()
    return published[uri] and published[register]
  end)
  say(string.format('open to diagnostics (first load of the package): %d ms', (published_at[uri] - t0) / 1e6))
  local ds = diagnostics(bufnr)
  check(#ds == 2, 'want 2 diagnostics, got ' .. vim.inspect(ds))
  local want = {
    { lnum = 9, col = 12, msg = 'the assertion to *v1.Pod fails' },
    { lnum = 17, col = 8, msg = 'this type switch has no case for it' },
  }
  for i, w in ipairs(want) do
    local d = ds[i]
    check(
      d.lnum == w.lnum and d.col == w.col and d.message:find(w.msg, 1, true) and d.source == 'ctrllint',
      'diagnostic ' .. i .. ': ' .. vim.inspect(d) .. '\nwant ' .. vim.inspect(w)
    )
    local lsp = d.user_data and d.user_data.lsp or {}
    check(lsp.code == 'tombstone', 'diagnostic code ' .. vim.inspect(lsp.code))
    check(
      lsp.codeDescription and lsp.codeDescription.href:match('docs/analyzers/tombstone%.md$'),
      'codeDescription ' .. vim.inspect(lsp.codeDescription)
    )
    say(string.format('diagnostic %d:%d [%s %s] %s', d.lnum + 1, d.col + 1, d.source, lsp.code, d.message))
  end

  -- Fix the first finding (adds the import and unwraps the tombstone),
  -- save, and the second finding is all that is left.
  apply_quick_fix(bufnr, client, ds[1], 'Unwrap the tombstone before the assertion')
  local ms = save_and_wait(bufnr, uri)
  ds = diagnostics(bufnr)
  check(#ds == 1 and ds[1].lnum == 21, 'after the first fix: ' .. vim.inspect(ds))
  say(string.format('save to diagnostics: %d ms; 1 diagnostic left, at line %d', ms, ds[1].lnum + 1))

  apply_quick_fix(bufnr, client, ds[1], 'Unwrap the tombstone before the assertion')
  save_and_wait(bufnr, uri)
  ds = diagnostics(bufnr)
  check(#ds == 0, 'after both fixes: ' .. vim.inspect(ds))
  check(read(file) == read(golden), 'handlers.go differs from handlers.go.golden:\n' .. read(file))
  say('handlers.go matches handlers.go.golden; no diagnostics left')

  -- Warm saves.
  local times = {}
  for _ = 1, 5 do
    table.insert(times, math.floor(save_and_wait(bufnr, uri)))
  end
  table.sort(times)
  say(string.format('save to diagnostics, warm: median %d ms (%s)', times[3], table.concat(times, ' ')))

  -- Stopping the client sends shutdown, then exit; the server process ends.
  h.stop(client, 'the server')
  say('server stopped')
end

h.run(main)
