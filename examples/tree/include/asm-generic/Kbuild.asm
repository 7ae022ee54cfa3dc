header-y += sample_arch.h
