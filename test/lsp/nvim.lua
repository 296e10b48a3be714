-- The Neovim setup of doc/editors.md, tried headless (not part of make check):
--   PATH=build:$PATH nvim --headless --clean -c 'luafile test/lsp/nvim.lua' FILE.ptx
-- prints the diagnostics the server sent for FILE and a hover on its first
-- instruction, then quits (status 1 when no diagnostic or hover came).
vim.filetype.add({ extension = { ptx = "ptx" } })
local function start(args)
  local config = { name = "ptx-front", cmd = { "ptx-front", "--lsp" },
                   root_dir = vim.fn.fnamemodify(args.file, ":p:h") }
  if vim.lsp.start then                       -- Neovim 0.8 and later
    vim.lsp.start(config)
  else                                        -- 0.7 (Debian 12's)
    vim.lsp.buf_attach_client(args.buf, vim.lsp.start_client(config))
  end
end
vim.api.nvim_create_autocmd("FileType", { pattern = "ptx", callback = start })
vim.g.do_filetype_lua = 1   -- 0.7: vim.filetype.add is used only then
vim.cmd("edit")             -- FileType again, now that the autocommand is there
if vim.bo.filetype ~= "ptx" then vim.bo.filetype = "ptx" end
local buf = vim.api.nvim_get_current_buf()
local ok = vim.wait(10000, function() return #vim.diagnostic.get(buf) > 0 end, 50)
local out = {}
for _, d in ipairs(vim.diagnostic.get(buf)) do
  table.insert(out, string.format("diagnostic %d:%d %s", d.lnum + 1, d.col + 1, d.message))
end
-- hover on the first line that starts with a tab and a letter (an instruction)
local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
local hovered = false
for i, l in ipairs(lines) do
  if l:match("^\t%a") and not l:match("^\t%.") then
    local params = { textDocument = vim.lsp.util.make_text_document_params(buf),
                     position = { line = i - 1, character = 2 } }
    local res = vim.lsp.buf_request_sync(buf, "textDocument/hover", params, 10000)
    for _, r in pairs(res or {}) do
      if r.result and r.result.contents then
        table.insert(out, "hover " .. (r.result.contents.value or ""):gsub("\n.*", ""))
        hovered = true
      end
    end
    break
  end
end
io.stdout:write(table.concat(out, "\n") .. "\n")
io.stdout:flush()
vim.cmd((ok and hovered) and "qa!" or "cq!")
