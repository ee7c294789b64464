/* Hostile bot: tries to read each host path of target.txt (another bot's secret, the service's
 * settings) directly, through /proc/1/root, by walking up from its own directory and through
 * /proc/self/root; writes whatever it read to stderr, then plays legal moves. */
#include <errno.h>
#include <string.h>

#include "play.h"

int main(void) {
    char target[4096], path[8192], data[256];
    FILE *targets = fopen("target.txt", "r");
    while (targets && fgets(target, sizeof target, targets)) {
        target[strcspn(target, "\n")] = 0;
        const char *ways[] = {"", "/proc/1/root", "../..", "/proc/self/root"};
        for (size_t i = 0; i < 4; i++) {
            snprintf(path, sizeof path, "%s%s", ways[i], target);
            FILE *file = fopen(path, "r");
            if (file) {
                size_t n = fread(data, 1, sizeof data - 1, file);
                data[n] = 0;
                fclose(file);
                fprintf(stderr, "READ %s: READ %s\n", path, data);
            } else {
                fprintf(stderr, "READ %s: failed (%s)\n", path, strerror(errno));
            }
        }
    }
    play(NULL);
    return 0;
}
