/* Benchmark bot (protocol v1), native runtime: always answers the first legal action, as the
 * JSON text the arena sent (examples/bots/native/arena.h). Built by bench/protocol.py with
 * gcc -static -O2. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>

#include "arena.h"

int main(void) {
    char *line = NULL;
    size_t capacity = 0, len;
    while (getline(&line, &capacity, stdin) > 0) {
        const char *type = arena_field(line, "type", &len);
        if (arena_is(type, len, "act")) {
            const char *action = arena_item(arena_field(line, "legal_actions", &len), 0, &len);
            arena_answer(action, len);
        } else if (arena_is(type, len, "result")) {
            break;
        }
    }
    free(line);
    return 0;
}
