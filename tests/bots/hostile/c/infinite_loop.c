/* Hostile bot: spins the CPU forever at its first move. */
#include "play.h"

static int spin(void) {
    for (volatile unsigned long i = 0;; i++) {
    }
}

int main(void) {
    play(spin);
    return 0;
}
