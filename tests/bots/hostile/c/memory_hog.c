/* Hostile bot: allocates far past the memory limit at its first move (and touches the memory,
 * so overcommit cannot hide it), reporting how much it holds. */
#include <string.h>

#include "play.h"

static int hog(void) {
    fprintf(stderr, "MEMORY allocating\n");
    for (size_t held = 0;; held += 64) {
        char *block = malloc((size_t)64 << 20);
        if (!block) {
            fprintf(stderr, "MEMORY refused: malloc failed after %zu MiB\n", held);
            exit(1);
        }
        memset(block, 'x', (size_t)64 << 20);
        fprintf(stderr, "MEMORY holding %zu MiB\n", held + 64);
    }
}

int main(void) {
    play(hog);
    return 0;
}
