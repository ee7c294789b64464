/* Hostile bot: leaves a daemon behind (double fork, new session, stdio closed), whose command line
 * carries the marker from marker.txt so the test can look for it; then plays legal moves. */
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "play.h"

int main(void) {
    char marker[256];
    first_line("marker.txt", marker, sizeof marker);
    if (fork() == 0) {
        setsid();
        if (fork() == 0) {
            int devnull = open("/dev/null", O_RDWR);
            for (int fd = 0; fd < 3; fd++) dup2(devnull, fd);
            execl("/bin/sh", "sh", "-c", "sleep 3600; :", marker, (char *)NULL);
        }
        _exit(0);
    }
    wait(NULL);
    fprintf(stderr, "CHILD daemon started with marker %s\n", marker);
    play(NULL);
    return 0;
}
