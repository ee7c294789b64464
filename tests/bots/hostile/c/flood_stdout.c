/* Hostile bot: floods stdout (no newline, without end) at its first move. */
#include <string.h>

#include "play.h"

static int flood(void) {
    static char chunk[65536];
    memset(chunk, 'A', sizeof chunk);
    for (;;) fwrite(chunk, 1, sizeof chunk, stdout);
}

int main(void) {
    play(flood);
    return 0;
}
