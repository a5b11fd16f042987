-- What the headless-Neovim editor tests share (hack/lsp/e2e.lua for
-- `ctrllint lsp`, hack/gopls/e2e.lua for `ctrllint gopls`): progress lines,
-- checks that fail the test, waiting that fails on a server's error
-- message, code action requests, and the exit status. Loaded with
-- dofile('hack/lsp/harness.lua')(prefix, timeout) from the repository root.

return function(prefix, timeout)
  local h = {}

  io.stdout:setvbuf('line')
  function h.say(msg)
    io.stdout:write(prefix .. ': ' .. msg .. '\n')
  end

  function h.check(cond, msg)
    if not cond then
      error(msg, 2)
    end
  end

  -- window/showMessage errors, recorded by wrapping the default handler:
  -- any one fails the next wait.
  h.errors = {}
  local on_show = vim.lsp.handlers['window/showMessage']
  vim.lsp.handlers['window/showMessage'] = function(err, result, ctx, config)
    if result.type == vim.lsp.protocol.MessageType.Error then
      table.insert(h.errors, result.message)
    end
    return on_show(err, result, ctx, config)
  end

  function h.wait(what, cond)
    local ok = vim.wait(timeout, function()
      return #h.errors > 0 or cond()
    end, 20)
    h.check(#h.errors == 0, 'the server reported: ' .. table.concat(h.errors, '\n'))
    h.check(ok, 'timed out waiting for ' .. what)
  end

  -- The code actions the servers offer at diagnostic d.
  function h.code_actions(bufnr, d)
    local responses = vim.lsp.buf_request_sync(bufnr, 'textDocument/codeAction', {
      textDocument = { uri = vim.uri_from_bufnr(bufnr) },
      range = { start = { line = d.lnum, character = d.col }, ['end'] = { line = d.lnum, character = d.col } },
      context = { diagnostics = vim.lsp.diagnostic.get_line_diagnostics(bufnr, d.lnum) },
    }, timeout)
    h.check(responses, 'no response to textDocument/codeAction')
    local actions = {}
    for _, r in pairs(responses) do
      h.check(not r.error, 'codeAction: ' .. vim.inspect(r.error))
      for _, a in ipairs(r.result or {}) do
        table.insert(actions, a)
      end
    end
    return actions
  end

  -- Stops the one client (shutdown, then exit) and waits for its server
  -- to end; the shell script checks the exit status.
  function h.stop(client, what)
    client.stop()
    h.check(
      vim.wait(15000, function()
        return #vim.lsp.get_active_clients() == 0
      end, 20),
      what .. ' did not exit after shutdown and exit'
    )
  end

  -- Runs main; any failed check exits Neovim with status 1.
  function h.run(main)
    local ok, err = xpcall(main, debug.traceback)
    if not ok then
      io.stderr:write(prefix .. ': FAIL: ' .. tostring(err) .. '\n')
      vim.cmd('cquit 1')
    end
    vim.cmd('qall!')
  end

  return h
end
