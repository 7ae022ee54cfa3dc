Content-Length: 195

{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": "file:///t/include/linux/a.h", "languageId": "c", "version": 1, "text": "#ifndef A\n#define A\n#endif\n"}}}Content-Type: application/vscode-jsonrpc; charset=utf-8
Content-Length: 49

{"jsonrpc": "2.0", "id": 2, "method": "shutdown"}