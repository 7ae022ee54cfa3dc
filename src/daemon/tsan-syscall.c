// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ThreadSanitizer builds only (configure --enable-tsan): libuv closes every
 * descriptor with syscall(SYS_close, fd), which the sanitizer runtime does
 * not intercept.  It would then take the next descriptor a pool thread
 * opens under that number (a header read by the engine) for the socket
 * libuv had there, and report the two as racing.  This syscall(2), linked
 * into the programs that run a libuv loop, is the one libuv's calls bind
 * to: it tells the runtime of each close before it happens (the number
 * cannot be handed out again before the runtime knows), and hands every
 * call to the C library's.  No suppression is needed for libuv's descriptors.
 */
#include <dlfcn.h>
#include <stdarg.h>
#include <stddef.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The sanitizer runtime's hook for a close(2) it does not see (linux_syscall_hooks.h). */
void __sanitizer_syscall_pre_impl_close(long fd);
long syscall(long number, ...);

typedef long (*syscall_fn)(long, ...);

long
syscall(long number, ...)
{
	static syscall_fn real; /* any thread may be first: atomics, not a lock */
	syscall_fn fn;
	long a[6];
	va_list ap;
	int i;

	/* as the C library's own: six argument registers, whatever the call passed */
	va_start(ap, number);
	for (i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	fn = __atomic_load_n(&real, __ATOMIC_ACQUIRE);
	if (fn == NULL) {
		fn = (syscall_fn)dlsym(RTLD_NEXT, "syscall");
		__atomic_store_n(&real, fn, __ATOMIC_RELEASE);
	}
	if (number == SYS_close)
		__sanitizer_syscall_pre_impl_close(a[0]);
	return fn(number, a[0], a[1], a[2], a[3], a[4], a[5]);
}
