/* Hostile bot: tries to hold memory that no process owns (SysV shared memory, a memfd, a POSIX
 * message queue), which the address-space rlimit would not count, with the system calls
 * themselves; reports each attempt on stderr, then plays legal moves. Inside the sandbox every
 * attempt is refused. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "play.h"

static void report(const char *name, long result) {
    if (result == -1)
        fprintf(stderr, "MEMORY %s: refused (%s)\n", name, strerror(errno));
    else
        fprintf(stderr, "MEMORY %s: HELD\n", name);
}

int main(void) {
    report("shmget", shmget(IPC_PRIVATE, (size_t)64 << 20, IPC_CREAT | 0600));
    long fd = syscall(SYS_memfd_create, "hog", 0);
    if (fd >= 0 && ftruncate((int)fd, 1 << 20) != 0) fd = -1;
    report("memfd", fd);
    report("mq_open", syscall(SYS_mq_open, "hog", O_CREAT | O_RDWR, 0600, NULL));
    play(NULL);
    return 0;
}
