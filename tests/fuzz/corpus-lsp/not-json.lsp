Content-Length: 5

helloContent-Length: 49

{"jsonrpc": "2.0", "id": 2, "method": "shutdown"}