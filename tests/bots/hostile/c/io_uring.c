/* Hostile bot: tries to set up an io_uring (a large kernel surface no bot needs), reports the
 * attempt on stderr, then plays legal moves. Inside the sandbox it is refused. */
#include <errno.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "play.h"

int main(void) {
    unsigned char params[120] = {0}; /* struct io_uring_params, zeroed */
    long fd = syscall(SYS_io_uring_setup, 4, params);
    if (fd >= 0)
        fprintf(stderr, "IO_URING setup: CREATED\n");
    else
        fprintf(stderr, "IO_URING setup: refused (%s)\n", strerror(errno));
    play(NULL);
    return 0;
}
