#include <asm-generic/int-ll64.h>
