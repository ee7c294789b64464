/* Hostile bot: tries to write outside /tmp (its own code, /etc, the root, /usr, /proc, /dev and
 * a host path named in target.txt) and inside /tmp, reports each attempt on stderr, then plays
 * legal moves. Only the /tmp write may succeed. */
#include <errno.h>
#include <string.h>

#include "play.h"

int main(void) {
    char host_path[4096];
    const char *paths[] = {"/bot/pwned", "/etc/pwned", "/pwned", "/usr/pwned", "/proc/pwned", "/dev/pwned",
                           "/dev/shm/pwned", first_line("target.txt", host_path, sizeof host_path), "/tmp/ok"};
    for (size_t i = 0; i < sizeof paths / sizeof *paths; i++) {
        FILE *file = fopen(paths[i], "w");
        if (file && fputs("pwned", file) >= 0 && fclose(file) == 0)
            fprintf(stderr, "WRITE %s: WROTE\n", paths[i]);
        else
            fprintf(stderr, "WRITE %s: failed (%s)\n", paths[i], strerror(errno));
    }
    play(NULL);
    return 0;
}
