-- Neovim configuration that runs `ctrllint lsp` beside gopls for Go files:
-- the set-up docs/editors.md describes, and the one hack/lsp/e2e.sh tests.
-- Works with Neovim 0.7 (Debian 12's) and later; no plugin needed.
--
--   nvim --clean -u hack/lsp/init.lua file.go
--
-- `ctrllint` must be on PATH. One server runs per module (the directory of
-- the go.mod above the file) and serves every Go buffer in it.

local cmd = { 'ctrllint', 'lsp' }
local clients = {} -- module root -> client id, for Neovim 0.7 (no vim.lsp.start)

local function attach(bufnr)
  local file = vim.api.nvim_buf_get_name(bufnr)
  if file == '' then
    return
  end
  local gomod = vim.fn.findfile('go.mod', vim.fn.fnamemodify(file, ':p:h') .. ';')
  if gomod == '' then
    return -- ctrllint analyses packages of modules only
  end
  local config = { name = 'ctrllint', cmd = cmd, root_dir = vim.fn.fnamemodify(gomod, ':p:h') }
  if vim.lsp.start then -- Neovim 0.8 and later: reuses a client with the same name and root
    vim.lsp.start(config, { bufnr = bufnr })
    return
  end
  local id = clients[config.root_dir]
  local client = id and vim.lsp.get_client_by_id(id)
  if not client or client.is_stopped() then
    id = vim.lsp.start_client(config)
    clients[config.root_dir] = id
  end
  if id then
    vim.lsp.buf_attach_client(bufnr, id)
  end
end

vim.api.nvim_create_autocmd('FileType', {
  pattern = 'go',
  callback = function(args)
    attach(args.buf)
  end,
})
