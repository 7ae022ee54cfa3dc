#include <asm/sample_arch.h>
