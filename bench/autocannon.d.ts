// The few parts of autocannon 9's programmatic API the bench uses (the package ships no types).
declare module 'autocannon' {
  export interface Shot {
    method?: 'GET' | 'POST';
    path?: string;
    headers?: Record<string, string>;
    body?: string;
  }

  export interface Options {
    url: string;
    connections?: number;
    /** Seconds. */
    duration?: number;
    /** A fixed number of requests instead of a duration. */
    amount?: number;
    /** Each connection cycles through these. */
    requests?: Shot[];
  }

  export interface Stats {
    average: number;
    p50: number;
    p99: number;
    total: number;
  }

  export interface Result {
    /** Seconds. */
    duration: number;
    requests: Stats;
    /** Milliseconds. */
    latency: Stats;
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
  }

  export default function autocannon(options: Options): Promise<Result>;
}
