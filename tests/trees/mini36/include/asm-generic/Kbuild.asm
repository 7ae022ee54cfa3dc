# what every architecture's asm/ installs (3.6's shape)
header-y += types.h
header-y += errno.h
