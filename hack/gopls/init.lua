-- Neovim configuration that starts gopls through ctrllint (`ctrllint
-- gopls`) for Go files: the set-up docs/editors.md describes for Neovim
-- without nvim-lspconfig, and the one hack/gopls/e2e.sh tests. With
-- nvim-lspconfig it is one line:
--   require('lspconfig').gopls.setup({ cmd = { 'ctrllint', 'gopls' } })
-- Works with Neovim 0.7 (Debian 12's) and later; no plugin needed.
--
--   nvim --clean -u hack/gopls/init.lua file.go
--
-- `ctrllint` and gopls must be on PATH (or gopls in GOBIN or GOPATH/bin).
-- CTRLLINT_GOPLS_CMD, if set, is the command instead (words separated by
-- spaces): the test runs `ctrllint-gopls` too, the name VS Code is given.

local cmd = { 'ctrllint', 'gopls' }
if vim.env.CTRLLINT_GOPLS_CMD then
  cmd = vim.split(vim.env.CTRLLINT_GOPLS_CMD, ' ', { trimempty = true })
end
local clients = {} -- module root -> client id, for Neovim 0.7 (no vim.lsp.start)

local function attach(bufnr)
  local file = vim.api.nvim_buf_get_name(bufnr)
  if file == '' then
    return
  end
  local gomod = vim.fn.findfile('go.mod', vim.fn.fnamemodify(file, ':p:h') .. ';')
  if gomod == '' then
    return
  end
  local config = { name = 'gopls', cmd = cmd, root_dir = vim.fn.fnamemodify(gomod, ':p:h') }
  if vim.lsp.start then -- Neovim 0.8 and later
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
