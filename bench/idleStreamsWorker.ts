import { get, Agent } from 'node:http';

// Child of serverIdleStreams: opens `count` follow streams to one session (in its own process, so
// the server's RSS holds only the server's side), tells the parent once every one has its headers,
// and holds them until told to stop.

const [url, count] = [process.argv[2]!, Number(process.argv[3])];
const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
let open = 0;
for (let i = 0; i < count; i++) {
  get(url, { agent }, (res) => {
    if (res.statusCode !== 200) throw new Error(`stream ${i}: HTTP ${res.statusCode}`);
    res.resume();
    if (++open === count) process.send!('open');
  }).on('error', (error) => {
    throw error;
  });
}
process.on('message', () => {
  agent.destroy();
  process.exit(0);
});
