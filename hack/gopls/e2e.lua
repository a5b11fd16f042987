-- The editor test of `ctrllint gopls`, run by hack/gopls/e2e.sh in a
-- headless Neovim configured by hack/gopls/init.lua, on a copy of the
-- tombstonefix fixture in $GOPLS_E2E_DIR whose handlers.go ends with a
-- self-assignment (which gopls reports):
--
--   open handlers.go; wait for ctrllint's two diagnostics and gopls's one,
--   all from the one client (gopls, through the proxy);
--   ask for the code actions at ctrllint's first: its quick fix is there;
--   hover over a function: gopls answers;
--   stop the client (shutdown and exit) and wait for the proxy to end
--   (e2e.sh checks its exit status).
--
-- Any failed check exits Neovim with status 1.

local dir = assert(vim.env.GOPLS_E2E_DIR, 'GOPLS_E2E_DIR is not set')
local file = dir .. '/tombstonefix/handlers.go'
local timeout = 120000 -- ms; gopls's and ctrllint's first load of client-go can be slow

local h = dofile('hack/lsp/harness.lua')('gopls-e2e', timeout)
local say, check, wait = h.say, h.check, h.wait

local function main()
  vim.cmd('edit ' .. vim.fn.fnameescape(file))
  local bufnr = vim.api.nvim_get_current_buf()
  local client
  wait('gopls to attach', function()
    client = vim.lsp.get_active_clients()[1]
    return client ~= nil and client.initialized
  end)
  check(client.name == 'gopls', 'client ' .. client.name)
  check(#vim.lsp.get_active_clients() == 1, 'more than one client')

  local t0 = vim.loop.hrtime()
  local ours, theirs
  wait("ctrllint's and gopls's diagnostics", function()
    ours, theirs = {}, {}
    for _, d in ipairs(vim.diagnostic.get(bufnr)) do
      if d.source == 'ctrllint' then
        table.insert(ours, d)
      elseif d.message:find('self-assignment', 1, true) then
        table.insert(theirs, d)
      end
    end
    return #ours == 2 and #theirs == 1
  end)
  say(string.format('open to both diagnostics: %d ms', (vim.loop.hrtime() - t0) / 1e6))
  table.sort(ours, function(a, b)
    return a.lnum < b.lnum
  end)
  check(ours[1].lnum == 9 and ours[1].message:find('the assertion to *v1.Pod fails', 1, true), 'ctrllint: ' .. vim.inspect(ours[1]))
  say(string.format('ctrllint %d:%d %s', ours[1].lnum + 1, ours[1].col + 1, ours[1].message))
  say(string.format('gopls %d:%d [%s] %s', theirs[1].lnum + 1, theirs[1].col + 1, tostring(theirs[1].source), theirs[1].message))

  local titles = {}
  for _, a in ipairs(h.code_actions(bufnr, ours[1])) do
    table.insert(titles, a.title)
  end
  check(vim.tbl_contains(titles, 'Unwrap the tombstone before the assertion'), 'code actions ' .. vim.inspect(titles))
  say('code actions: ' .. table.concat(titles, '; '))

  local line = theirs[1].lnum - 2 -- func selfAssign() {
  local responses = vim.lsp.buf_request_sync(bufnr, 'textDocument/hover', {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    position = { line = line, character = 6 },
  }, timeout)
  local hover = ''
  for _, r in pairs(responses or {}) do
    hover = hover .. vim.inspect(r.result)
  end
  check(hover:find('func selfAssign()', 1, true), 'hover: ' .. hover)
  say('hover: gopls answered')

  h.stop(client, 'the proxy')
  say('proxy stopped')
end

h.run(main)
