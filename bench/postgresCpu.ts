import { readFileSync } from 'node:fs';
import pg from 'pg';

const CLOCK_TICK_US = 10_000;

/** CPU time spent so far by the server's processes (its backends and background workers), from /proc: compare two readings taken while the same connections are open. */
export async function serverCpuUs(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>('SELECT pid FROM pg_stat_activity');
    return rows.reduce((sum, { pid }) => {
      // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      return sum + (Number(fields[11]) + Number(fields[12])) * CLOCK_TICK_US;
    }, 0);
  } finally {
    await client.end();
  }
}
