#error "Please do not include <stdlib.h> from exported headers"
