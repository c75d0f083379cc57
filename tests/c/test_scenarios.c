/*
 * Replays the shared scenario files (tests/scenarios/<variant>/NAME.json, format in
 * tests/scenarios/README.md) through the C ABI, with the same expectations as the Rust and
 * Python runners: the position round-trips, the legal play notations after a roll are exactly
 * the expected set, every listed notation plays back to the same result as the play by index,
 * rolls that must fail fail with the named error and change nothing, and the `then` plays lead
 * to the expected positions.
 *
 * Usage: test_scenarios FILE.json...
 */
#include "check.h"
#include "json_mini.h"

static int scenarios_passed = 0;
static int scenarios_failed = 0;

/* The failure of the scenario being run (first one wins), printed by run_scenario. */
static char failure[4096];

static int fail(const char *format, const char *a, const char *b) {
    if (!failure[0]) snprintf(failure, sizeof failure, format, a ? a : "(null)", b ? b : "(null)");
    return 0;
}

static int compare_strings(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Joins sorted strings as ["a", "b"] into `out`. */
static void join(char **items, size_t n, char *out, size_t cap) {
    size_t used = 0;
    used += (size_t)snprintf(out + used, cap - used, "[");
    for (size_t i = 0; i < n && used < cap; i++)
        used += (size_t)snprintf(out + used, cap - used, "%s\"%s\"", i ? ", " : "", items[i]);
    if (used < cap) snprintf(out + used, cap - used, "]");
}

static int set_roll(pachisi_game *g, const jm_value *roll, pachisi_result *status) {
    if (roll->type == JM_ARRAY && roll->count == 2 && roll->items[0].type == JM_NUMBER &&
        roll->items[1].type == JM_NUMBER) {
        *status = pachisi_game_set_dice(g, (uint8_t)roll->items[0].number,
                                        (uint8_t)roll->items[1].number);
        return 1;
    }
    if (roll->type == JM_NUMBER) {
        *status = pachisi_game_set_cowries(g, (uint8_t)roll->number);
        return 1;
    }
    return fail("bad `roll`%s%s", "", "");
}

/* After a roll: the legal play notations must equal `expected` (a JSON array of strings). */
static int check_plays(const pachisi_game *g, const jm_value *expected) {
    if (expected->type != JM_ARRAY) return fail("`plays` must be an array%s%s", "", "");
    size_t count = 0;
    if (pachisi_game_legal_play_count(g, &count) != PACHISI_RESULT_OK)
        return fail("legal_play_count failed: %s%s", last_error(), "");
    char **got = (char **)calloc(count + 1, sizeof *got);
    char **want = (char **)calloc(expected->count + 1, sizeof *want);
    int ok = got && want;
    for (size_t i = 0; ok && i < count; i++) {
        got[i] = play_notation(g, i);
        if (!got[i]) ok = fail("notation of a legal play failed: %s%s", last_error(), "");
    }
    for (size_t i = 0; ok && i < expected->count; i++) {
        if (expected->items[i].type != JM_STRING)
            ok = fail("play notations must be strings%s%s", "", "");
        else
            want[i] = expected->items[i].string;
    }
    if (ok) {
        qsort(got, count, sizeof *got, compare_strings);
        qsort(want, expected->count, sizeof *want, compare_strings);
        int same = count == expected->count;
        for (size_t i = 0; same && i < count; i++) same = !strcmp(got[i], want[i]);
        if (!same) {
            static char a[1800], b[1800];
            join(want, expected->count, a, sizeof a);
            join(got, count, b, sizeof b);
            ok = fail("legal plays differ\n  expected: %s\n  engine:   %s", a, b);
        }
    }
    if (got)
        for (size_t i = 0; i < count; i++) free(got[i]);
    free(got);
    free(want);
    return ok;
}

/* Every legal play's notation must play back to the same position as the play by index. */
static int check_notations_play_back(const pachisi_game *g) {
    size_t count = 0;
    if (pachisi_game_legal_play_count(g, &count) != PACHISI_RESULT_OK) return 0;
    int ok = 1;
    for (size_t i = 0; ok && i < count; i++) {
        pachisi_game *by_index = NULL, *by_text = NULL;
        char *text = play_notation(g, i);
        char *a = NULL, *b = NULL;
        if (!text || pachisi_game_clone(g, &by_index) != PACHISI_RESULT_OK ||
            pachisi_game_clone(g, &by_text) != PACHISI_RESULT_OK) {
            ok = fail("clone failed: %s%s", last_error(), "");
        } else if (pachisi_game_play(by_index, i) != PACHISI_RESULT_OK) {
            ok = fail("playing legal play `%s` by index failed: %s", text, last_error());
        } else if (pachisi_game_play_notation(by_text, text) != PACHISI_RESULT_OK) {
            ok = fail("notation `%s` does not play back: %s", text, last_error());
        } else {
            a = game_position(by_index);
            b = game_position(by_text);
            if (!a || !b || strcmp(a, b))
                ok = fail("notation `%s` plays another play (reached %s)", text, b);
        }
        free(a);
        free(b);
        free(text);
        pachisi_game_free(by_index);
        pachisi_game_free(by_text);
    }
    return ok;
}

/* A `roll` with its expectation: `error` (the roll fails with it, the game unchanged) or
 * `plays`. */
static int roll_and_check(pachisi_game *g, const jm_value *entry) {
    const jm_value *error = jm_get(entry, "error");
    char *before = game_json(g);
    pachisi_result status = PACHISI_RESULT_OK;
    int ok = set_roll(g, jm_get(entry, "roll"), &status);
    if (ok && error) {
        const char *name = pachisi_result_name(status);
        if (error->type != JM_STRING) {
            ok = fail("`error` must be a string%s%s", "", "");
        } else if (strcmp(name, error->string)) {
            ok = fail("roll: expected error %s, got %s", error->string, name);
        } else {
            char *after = game_json(g);
            if (!before || !after || strcmp(before, after))
                ok = fail("a rejected roll changed the game%s%s", "", "");
            free(after);
        }
    } else if (ok && status != PACHISI_RESULT_OK) {
        ok = fail("roll failed: %s: %s", pachisi_result_name(status), last_error());
    } else if (ok) {
        const jm_value *plays = jm_get(entry, "plays");
        if (plays) ok = check_plays(g, plays);
        if (ok) ok = check_notations_play_back(g);
    }
    free(before);
    return ok;
}

static int check_position(const pachisi_game *g, const char *want, const char *what) {
    char *got = game_position(g);
    int ok = got && !strcmp(got, want);
    if (!ok) {
        static char message[512];
        snprintf(message, sizeof message, "%s differs\n  expected: %%s\n  engine:   %%s", what);
        fail(message, want, got);
    }
    free(got);
    return ok;
}

static int run(const jm_value *s) {
    const jm_value *rules_value = jm_get(s, "rules");
    const jm_value *position = jm_get(s, "position");
    if (!rules_value || rules_value->type != JM_OBJECT || !position || position->type != JM_STRING)
        return fail("a scenario needs a `rules` object and a `position` string%s%s", "", "");
    char *rules_text = jm_source(rules_value);
    pachisi_rules *rules = NULL;
    pachisi_game *g = NULL;
    int ok = 1;
    if (pachisi_rules_from_json(rules_text, &rules) != PACHISI_RESULT_OK)
        ok = fail("rules %s: %s", rules_text, last_error());
    else if (pachisi_game_from_position(rules, position->string, 0, &g) != PACHISI_RESULT_OK)
        ok = fail("position `%s`: %s", position->string, last_error());
    else
        ok = check_position(g, position->string, "position round-trip");
    if (ok && jm_get(s, "roll")) ok = roll_and_check(g, s);
    const jm_value *then = jm_get(s, "then");
    if (ok && then && then->type != JM_ARRAY) ok = fail("`then` must be an array%s%s", "", "");
    for (size_t i = 0; ok && then && i < then->count; i++) {
        const jm_value *entry = &then->items[i];
        const jm_value *play = jm_get(entry, "play");
        const jm_value *pos = jm_get(entry, "position");
        if (jm_get(entry, "roll")) ok = roll_and_check(g, entry);
        if (ok && play) {
            if (play->type != JM_STRING)
                ok = fail("`play` must be a string%s%s", "", "");
            else if (pachisi_game_play_notation(g, play->string) != PACHISI_RESULT_OK)
                ok = fail("then: play `%s`: %s", play->string, last_error());
        }
        if (ok && pos) {
            if (pos->type != JM_STRING)
                ok = fail("`position` must be a string%s%s", "", "");
            else
                ok = check_position(g, pos->string, "then: position");
        }
    }
    pachisi_game_free(g);
    pachisi_rules_free(rules);
    free(rules_text);
    return ok;
}

static void run_scenario(const char *file, size_t index, int in_array, const jm_value *s) {
    failure[0] = '\0';
    if (run(s)) {
        scenarios_passed++;
        return;
    }
    const jm_value *name = jm_get(s, "name");
    scenarios_failed++;
    if (in_array)
        fprintf(stderr, "FAIL %s[%zu] (%s): %s\n", file, index,
                name && name->type == JM_STRING ? name->string : "", failure);
    else
        fprintf(stderr, "FAIL %s (%s): %s\n", file,
                name && name->type == JM_STRING ? name->string : "", failure);
}

int main(int argc, char **argv) {
    for (int a = 1; a < argc; a++) {
        size_t length = 0;
        const char *error = NULL;
        char *text = jm_read_file(argv[a], &length);
        jm_value root;
        if (!text || !jm_parse(text, length, &root, &error)) {
            fprintf(stderr, "FAIL %s: cannot read: %s\n", argv[a], text ? error : "unreadable");
            scenarios_failed++;
            free(text);
            continue;
        }
        if (root.type == JM_ARRAY)
            for (size_t i = 0; i < root.count; i++) run_scenario(argv[a], i, 1, &root.items[i]);
        else
            run_scenario(argv[a], 0, 0, &root);
        jm_free(&root);
        free(text);
    }
    printf("scenario files read: %d\n", argc - 1);
    printf("scenarios: %d passed, %d failed\n", scenarios_passed, scenarios_failed);
    return scenarios_failed == 0 ? 0 : 1;
}
