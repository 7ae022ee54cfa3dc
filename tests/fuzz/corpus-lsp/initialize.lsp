Content-Length: 52

{"jsonrpc":"2.0","id":1,"method":"initialize","p":1}