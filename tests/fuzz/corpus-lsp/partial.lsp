Content-Length: 49

{"jsonrpc": "2.0", "id": 2, "method": "shutdown"}Content-Length: 100

{"a":