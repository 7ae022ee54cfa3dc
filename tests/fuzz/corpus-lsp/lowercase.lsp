content-length: 2

{}