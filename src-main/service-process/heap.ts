/**
 * The service's young generation, capped at 8 MiB a semi-space. V8 sizes it from the
 * machine: here it grew to 32 MiB a semi-space on the main thread (16 in a worker). A
 * scavenge copies whatever is still alive in it, so while a thousand-entry import keeps
 * its batch alive, one scavenge held the service for up to 17–23 ms, and every other
 * request waited behind it. Capped, a scavenge has at most a quarter of that to copy: at
 * a million entries the longest took 5 ms, for the same total time in scavenges (the
 * import's rate unchanged).
 */
export const SERVICE_SEMI_SPACE_MB = 8;

/** The flags the service's process starts with (`npm run serve`, the desktop's service process). */
export const SERVICE_V8_FLAGS: readonly string[] = [`--max-semi-space-size=${SERVICE_SEMI_SPACE_MB}`];

/** The same cap for a service on a worker thread (the benchmarks'): V8's young generation is three semi-spaces. */
export const SERVICE_YOUNG_GENERATION_MB = 3 * SERVICE_SEMI_SPACE_MB;
