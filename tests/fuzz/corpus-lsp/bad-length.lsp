Content-Length: 12x

{}