#include <asm-generic/foo.h>
