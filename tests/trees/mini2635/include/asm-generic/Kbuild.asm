# what every architecture's asm/ installs (2.6.x shape)
ifneq ($(wildcard $(srctree)/arch/$(SRCARCH)/include/asm/kvm.h \
		  $(srctree)/include/asm-$(SRCARCH)/kvm.h),)
header-y  += kvm.h
endif
unifdef-y += types.h
header-y += errno.h
