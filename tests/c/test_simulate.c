/*
 * pachisi_simulate on worker threads: enough games (>= 64) to take the parallel path, on
 * several threads and on threads = 0 (every core). No worker may be left running when the call
 * returns (checked in /proc/self/task here, and by valgrind, which runs this test), the records
 * do not depend on the thread count, `threads` is bounded, a progress callback is called on the
 * calling thread and cancels when it returns nonzero (writing nothing), and games past the
 * rules' max_rolls come back truncated.
 */
#define _DEFAULT_SOURCE
#include "check.h"
#include <dirent.h>
#include <stdint.h>
#include <time.h>

/* Threads of this process, from /proc/self/task (-1 where there is no /proc). */
static int thread_count(void) {
    DIR *d = opendir("/proc/self/task");
    if (!d) return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (e->d_name[0] != '.') n++;
    closedir(d);
    return n;
}

/* The thread count once it has settled at `want`, waiting up to a second. pthread_join returns
 * when the kernel clears the thread's tid, a moment before its /proc/self/task entry goes, so
 * under load a joined worker can still be listed briefly. A worker left running stays listed. */
static int settled_thread_count(int want) {
    int n = thread_count();
    for (int i = 0; i < 100 && n != want; i++) {
        struct timespec pause = {0, 10 * 1000 * 1000};
        nanosleep(&pause, NULL);
        n = thread_count();
    }
    return n;
}

static int same_records(const pachisi_game_record *a, const pachisi_game_record *b, size_t n) {
    for (size_t i = 0; i < n; i++) {
        if (a[i].winners != b[i].winners || a[i].winner != b[i].winner ||
            a[i].truncated != b[i].truncated || a[i].points != b[i].points ||
            a[i].rolls != b[i].rolls || a[i].captures != b[i].captures)
            return 0;
    }
    return 1;
}

struct progress_log {
    int calls;
    uint64_t last_done;
    uint64_t total;
    int in_order;
    int cancel_after; /* cancel on this call (0: never) */
};

static int32_t on_progress(void *userdata, uint64_t done, uint64_t total) {
    struct progress_log *log = (struct progress_log *)userdata;
    log->calls++;
    if (done < log->last_done || done > total) log->in_order = 0;
    log->last_done = done;
    log->total = total;
    return log->cancel_after != 0 && log->calls >= log->cancel_after;
}

enum { GAMES = 200 };

static void test_threads(const char *preset) {
    pachisi_rules *rules = NULL;
    static pachisi_game_record one[GAMES], many[GAMES];
    EXPECT_OK(pachisi_rules_from_preset(preset, NULL, &rules));
    int before = thread_count();
    EXPECT_OK(pachisi_simulate(rules, 11, 1, one, GAMES));
    uint32_t counts[] = {0, 2, 3, 8};
    for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++) {
        memset(many, 0xAB, sizeof many);
        EXPECT_OK(pachisi_simulate(rules, 11, counts[k], many, GAMES));
        CHECK(same_records(one, many, GAMES));
        /* Every worker has ended when the call returns. */
        CHECK(settled_thread_count(before) == before);
    }
    for (size_t i = 0; i < GAMES; i++) CHECK(one[i].rolls > 0 && one[i].truncated == 0);
    pachisi_rules_free(rules);
}

static void test_thread_bound(void) {
    pachisi_rules *rules = NULL;
    pachisi_game_record records[GAMES];
    memset(records, 0xAB, sizeof records);
    EXPECT_OK(pachisi_rules_from_preset("backgammon", NULL, &rules));
    EXPECT_STATUS(pachisi_simulate(rules, 1, PACHISI_MAX_THREADS + 1, records, GAMES),
                  PACHISI_RESULT_INVALID_ARGUMENT);
    EXPECT_STATUS(pachisi_simulate(rules, 1, UINT32_MAX, records, GAMES),
                  PACHISI_RESULT_INVALID_ARGUMENT);
    CHECK(strstr(last_error(), "threads") != NULL);
    CHECK(records[0].rolls == 0xABABABABu);
    CHECK(!strcmp(pachisi_result_name(PACHISI_RESULT_INVALID_ARGUMENT), "InvalidArgument"));
    CHECK(!strcmp(pachisi_result_name(PACHISI_RESULT_CANCELLED), "Cancelled"));
    CHECK(!strcmp(pachisi_result_name(PACHISI_RESULT_RESOURCE_ERROR), "ResourceError"));
    pachisi_rules_free(rules);
}

static void test_progress_and_cancel(void) {
    pachisi_rules *rules = NULL;
    static pachisi_game_record plain[GAMES], watched[GAMES];
    EXPECT_OK(pachisi_rules_from_preset("parcheesi", NULL, &rules));
    EXPECT_OK(pachisi_simulate(rules, 3, 2, plain, GAMES));
    struct progress_log log = {0, 0, 0, 1, 0};
    int before = thread_count();
    EXPECT_OK(pachisi_simulate_with_progress(rules, 3, 0, 2, on_progress, &log, watched, GAMES));
    CHECK(same_records(plain, watched, GAMES));
    CHECK(log.calls >= 1 && log.in_order && log.last_done == GAMES && log.total == GAMES);
    CHECK(settled_thread_count(before) == before);
    /* NULL callback: a plain run. */
    EXPECT_OK(pachisi_simulate_with_progress(rules, 3, 0, 0, NULL, NULL, watched, GAMES));
    CHECK(same_records(plain, watched, GAMES));

    /* Cancel at the first call: a run far too long to finish first. */
    enum { LONG = 1000000 };
    pachisi_game_record *big = (pachisi_game_record *)malloc(LONG * sizeof *big);
    CHECK(big != NULL);
    if (big) {
        memset(big, 0xAB, LONG * sizeof *big);
        struct progress_log stop = {0, 0, 0, 1, 1};
        EXPECT_STATUS(
            pachisi_simulate_with_progress(rules, 3, 0, 2, on_progress, &stop, big, LONG),
            PACHISI_RESULT_CANCELLED);
        CHECK(stop.calls == 1 && stop.last_done < LONG);
        CHECK(big[0].rolls == 0xABABABABu && big[LONG - 1].rolls == 0xABABABABu);
        CHECK(settled_thread_count(before) == before);
        free(big);
    }
    pachisi_rules_free(rules);
}

static void test_truncated(void) {
    pachisi_rules *rules = NULL;
    static pachisi_game_record records[GAMES];
    EXPECT_OK(pachisi_rules_from_preset("pachisi", "{\"max_rolls\": 25}", &rules));
    EXPECT_OK(pachisi_simulate(rules, 1, 2, records, GAMES));
    for (size_t i = 0; i < GAMES; i++) {
        CHECK(records[i].truncated == 1 && records[i].winners == 0);
        CHECK(records[i].winner == PACHISI_NO_SEAT && records[i].rolls == 25);
    }
    /* The same cap in a game: over, truncated, no winner. */
    pachisi_game *g = NULL;
    EXPECT_OK(pachisi_game_new(rules, 1, &g));
    bool over = false, truncated = true;
    EXPECT_OK(pachisi_game_is_truncated(g, &truncated));
    CHECK(!truncated);
    for (int i = 0; i < 10000 && !over; i++) {
        pachisi_node node;
        EXPECT_OK(pachisi_game_node(g, &node));
        if (node == PACHISI_NODE_CHANCE)
            EXPECT_OK(pachisi_game_roll(g, NULL));
        else if (node == PACHISI_NODE_DECISION)
            EXPECT_OK(pachisi_game_play(g, 0));
        EXPECT_OK(pachisi_game_is_over(g, &over));
    }
    EXPECT_OK(pachisi_game_is_truncated(g, &truncated));
    CHECK(over && truncated);
    EXPECT_STATUS(pachisi_game_roll(g, NULL), PACHISI_RESULT_WRONG_PHASE);
    pachisi_game_free(g);
    pachisi_rules_free(rules);
    /* No option value is accepted that would stall every game. */
    EXPECT_STATUS(pachisi_rules_from_preset("pachisi", "{\"shell_probability\": 1e-9}", &rules),
                  PACHISI_RESULT_INVALID_RULES);
    EXPECT_STATUS(pachisi_rules_from_preset("parcheesi", "{\"max_rolls\": 0}", &rules),
                  PACHISI_RESULT_INVALID_RULES);
}

int main(void) {
    const char *presets[] = {"parcheesi", "pachisi", "backgammon"};
    for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++) test_threads(presets[i]);
    test_thread_bound();
    test_progress_and_cancel();
    test_truncated();
    return finish_checks("simulate");
}
