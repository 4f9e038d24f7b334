/*
 * Offline search for a schedule without a repeated meeting (tournaments/seating/catalogue.py).
 *
 * The conflict-directed tabu search of tournaments/seating/search.py (Dotu & Van Hentenryck,
 * "Scheduling social golfers locally", 2005) over whole schedules, compiled: millions of steps
 * a minute, where a draw has seconds. Cost = meetings beyond the first of each pair. A step swaps
 * a player who sits with someone met before with a player at another table of the same round
 * (the best swap not tabu; ties broken at random); after 20,000 steps without a new best, three
 * random swaps. Deterministic: the same arguments always give the same schedule.
 *
 * usage: find_schedule N ROUNDS SIZES SEED MAX_STEPS [TENURE [SECONDS]]
 *   SIZES: the tables of a round, e.g. 3,3,3,3,4,4 (the order matters for the seed)
 * prints "cost C steps S", then one line per round: (a,b,c) (d,e,f,g) ...
 * exit status 0 when the cost is 0.
 *
 * Run through tests/seating_catalogue/find_schedules.py, which compiles this file and checks the result.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAXN 64
#define MAXR 32
#define MAXT 24

static volatile sig_atomic_t stop = 0;
static void on_alarm(int sig) { (void)sig; stop = 1; }

static int n, R, T, sz[MAXT];
static int tab[MAXR][MAXT][4], best_tab[MAXR][MAXT][4]; /* players at each table */
static int where[MAXR][MAXN], pos[MAXR][MAXN];         /* table and seat of a player */
static int meet[MAXN][MAXN];
static long tabu[MAXR][MAXN][MAXT]; /* player may not go back to the table before this step */
static int cost;
static unsigned long long rs;

static unsigned rnd(void) {
    rs ^= rs << 13;
    rs ^= rs >> 7;
    rs ^= rs << 17;
    return (unsigned)(rs >> 11);
}

static void seat_table(int r, int t) {
    for (int i = 0; i < sz[t]; i++)
        for (int j = i + 1; j < sz[t]; j++) {
            int a = tab[r][t][i], b = tab[r][t][j];
            if (meet[a][b] >= 1) cost++;
            meet[a][b]++;
            meet[b][a]++;
        }
}

/* change of cost if a and b (different tables of round r) swap */
static int delta(int r, int a, int b) {
    int A = where[r][a], B = where[r][b], d = 0;
    for (int i = 0; i < sz[A]; i++) {
        int x = tab[r][A][i];
        if (x == a) continue;
        if (meet[a][x] >= 2) d--;
        if (meet[b][x] >= 1) d++;
    }
    for (int i = 0; i < sz[B]; i++) {
        int x = tab[r][B][i];
        if (x == b) continue;
        if (meet[b][x] >= 2) d--;
        if (meet[a][x] >= 1) d++;
    }
    return d;
}

static void swap_players(int r, int a, int b) {
    int A = where[r][a], B = where[r][b];
    for (int i = 0; i < sz[A]; i++) {
        int x = tab[r][A][i];
        if (x == a) continue;
        meet[a][x]--, meet[x][a]--;
        if (meet[a][x] >= 1) cost--;
        if (meet[b][x] >= 1) cost++;
        meet[b][x]++, meet[x][b]++;
    }
    for (int i = 0; i < sz[B]; i++) {
        int x = tab[r][B][i];
        if (x == b) continue;
        meet[b][x]--, meet[x][b]--;
        if (meet[b][x] >= 1) cost--;
        if (meet[a][x] >= 1) cost++;
        meet[a][x]++, meet[x][a]++;
    }
    int pa = pos[r][a], pb = pos[r][b];
    tab[r][A][pa] = b, tab[r][B][pb] = a;
    where[r][a] = B, where[r][b] = A;
    pos[r][a] = pb, pos[r][b] = pa;
}

int main(int argc, char **argv) {
    if (argc < 6) {
        fprintf(stderr, "usage: %s N ROUNDS SIZES SEED MAX_STEPS [TENURE [SECONDS]]\n", argv[0]);
        return 2;
    }
    n = atoi(argv[1]);
    R = atoi(argv[2]);
    T = 0;
    int seated = 0;
    for (char *p = strtok(argv[3], ","); p && T < MAXT; p = strtok(NULL, ",")) seated += sz[T++] = atoi(p);
    if (n > MAXN || R > MAXR || seated != n) {
        fprintf(stderr, "N must be at most %d, ROUNDS at most %d, SIZES must seat N\n", MAXN, MAXR);
        return 2;
    }
    rs = atoll(argv[4]) * 2654435761ULL + 12345;
    long max_steps = atol(argv[5]);
    int tenure = argc > 6 ? atoi(argv[6]) : 10;
    if (argc > 7) {
        signal(SIGALRM, on_alarm);
        alarm(atoi(argv[7]));
    }
    int perm[MAXN];
    for (int r = 0; r < R; r++) { /* random start */
        for (int i = 0; i < n; i++) perm[i] = i;
        for (int i = n - 1; i > 0; i--) {
            int j = rnd() % (i + 1), t = perm[i];
            perm[i] = perm[j], perm[j] = t;
        }
        int k = 0;
        for (int t = 0; t < T; t++)
            for (int i = 0; i < sz[t]; i++) {
                int p = perm[k++];
                tab[r][t][i] = p, where[r][p] = t, pos[r][p] = i;
            }
    }
    for (int r = 0; r < R; r++)
        for (int t = 0; t < T; t++) seat_table(r, t);
    int best = cost, overall = cost;
    long last_better = 0, step = 0;
    memcpy(best_tab, tab, sizeof tab);
    while (step < max_steps && cost > 0 && !stop) {
        step++;
        int bd = 1 << 30, ties = 0, br = -1, ba = -1, bb = -1;
        for (int r = 0; r < R; r++)
            for (int a = 0; a < n; a++) {
                int A = where[r][a], conflict = 0;
                for (int i = 0; i < sz[A]; i++) {
                    int x = tab[r][A][i];
                    if (x != a && meet[a][x] >= 2) { conflict = 1; break; }
                }
                if (!conflict) continue;
                for (int b = 0; b < n; b++) {
                    if (where[r][b] == A) continue;
                    int d = delta(r, a, b);
                    int is_tabu = tabu[r][a][where[r][b]] > step || tabu[r][b][A] > step;
                    if (is_tabu && cost + d >= best) continue; /* aspiration: a new best */
                    if (d < bd) {
                        bd = d, ties = 1, br = r, ba = a, bb = b;
                    } else if (d == bd && rnd() % ++ties == 0) {
                        br = r, ba = a, bb = b;
                    }
                }
            }
        if (br < 0) continue;
        int A = where[br][ba], B = where[br][bb];
        swap_players(br, ba, bb);
        int keep = tenure + rnd() % tenure;
        tabu[br][ba][A] = step + keep;
        tabu[br][bb][B] = step + keep;
        if (cost < best) best = cost, last_better = step;
        if (cost < overall) overall = cost, memcpy(best_tab, tab, sizeof tab);
        if (step - last_better > 20000) { /* stuck: three random swaps */
            for (int k = 0; k < 3; k++) {
                int r = rnd() % R, a = rnd() % n, b = rnd() % n;
                if (where[r][a] != where[r][b]) swap_players(r, a, b);
            }
            last_better = step, best = cost;
        }
    }
    if (cost > 0) memcpy(tab, best_tab, sizeof tab);
    printf("cost %d steps %ld\n", overall, step);
    for (int r = 0; r < R; r++) {
        for (int t = 0; t < T; t++) {
            printf("(");
            for (int i = 0; i < sz[t]; i++) printf("%d%s", tab[r][t][i], i + 1 < sz[t] ? "," : "");
            printf(t + 1 < T ? ") " : ")\n");
        }
    }
    return overall != 0;
}
