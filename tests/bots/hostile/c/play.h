/* The hostile C bots' protocol loop (a helper, not a bot), on examples/bots/native/arena.h:
 * answers every act with a random legal action, exits at the result. `on_act`, if given, runs
 * first; when it returns 0 the act is not answered. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>

#include "arena.h"

static void play(int (*on_act)(void)) {
    char *line = NULL;
    size_t capacity = 0, len;
    while (getline(&line, &capacity, stdin) > 0) {
        const char *type = arena_field(line, "type", &len);
        if (arena_is(type, len, "act")) {
            if (on_act && !on_act()) continue;
            const char *legal = arena_field(line, "legal_actions", &len);
            size_t count = legal ? arena_count(legal) : 0;
            if (!count) exit(2);
            const char *action = arena_item(legal, (size_t)rand() % count, &len);
            arena_answer(action, len);
        } else if (arena_is(type, len, "result")) {
            break;
        }
    }
    free(line);
}

/* The first line of a file of the bot's folder (target.txt, marker.txt), without its newline. */
__attribute__((unused)) static char *first_line(const char *path, char *buffer, size_t size) {
    FILE *file = fopen(path, "r");
    buffer[0] = 0;
    if (file) {
        if (!fgets(buffer, (int)size, file)) buffer[0] = 0;
        fclose(file);
    }
    buffer[strcspn(buffer, "\n")] = 0;
    return buffer;
}
