import net from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  /** The body parsed as JSON, or the text when it is not JSON. */
  body: unknown;
  text: string;
}

/** Status, headers and body of one HTTP/1.1 response, once all of it (Content-Length or chunked) is in `data`. */
function parseResponse(data: Buffer, ended: boolean): RawResponse | null {
  const headEnd = data.indexOf('\r\n\r\n');
  if (headEnd < 0) return null;
  const [statusLine, ...lines] = data.subarray(0, headEnd).toString('latin1').split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let rest = data.subarray(headEnd + 4);
  if (headers['content-length'] !== undefined) {
    const length = Number(headers['content-length']);
    if (rest.length < length) return null;
    rest = rest.subarray(0, length);
  } else if (/chunked/i.test(headers['transfer-encoding'] ?? '')) {
    const chunks: Buffer[] = [];
    for (let at = 0; ;) {
      const lineEnd = rest.indexOf('\r\n', at);
      if (lineEnd < 0) return null;
      const size = parseInt(rest.subarray(at, lineEnd).toString('latin1'), 16);
      if (size === 0) break;
      if (rest.length < lineEnd + 2 + size) return null;
      chunks.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size));
      at = lineEnd + 4 + size;
    }
    rest = Buffer.concat(chunks);
  } else if (!ended) {
    return null;
  }
  const text = rest.toString('utf8');
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON: the caller's assertion says so */
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body, text };
}

/**
 * Writes `request` byte for byte to a new connection to 127.0.0.1:`port` (so malformed HTTP, duplicate headers
 * and oversized lines reach the server as sent) and resolves with the first response. Rejects when the server
 * closes without a complete response, or after `timeoutMs` (a guard against a hang, not a wait).
 */
export function rawHttp(port: number, request: string | Buffer, timeoutMs = 10_000): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let data = Buffer.alloc(0);
    let settled = false;
    const finish = (res: RawResponse | null, err?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (res) resolve(res);
      else
        reject(
          err ??
            new Error(
              `connection closed without a complete response: ${JSON.stringify(data.toString('latin1').slice(0, 200))}`,
            ),
        );
    };
    const timer = setTimeout(() => finish(null, new Error('no response in time')), timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      const res = parseResponse(data, false);
      if (res) finish(res);
    });
    socket.on('end', () => finish(parseResponse(data, true)));
    socket.on('close', () => finish(parseResponse(data, true)));
    // The server may close while we still write (e.g. after a 431): the response read so far still counts.
    socket.on('error', (err) => finish(parseResponse(data, true), err));
    socket.write(request);
  });
}

/** A request head (plus optional body) in HTTP/1.1 wire format; `Connection: close` unless headers say otherwise. */
export function httpRequest(
  method: string,
  target: string,
  headers: [string, string][],
  body?: string | Buffer,
): Buffer {
  const all = [...headers];
  if (!all.some(([k]) => k.toLowerCase() === 'connection')) all.push(['Connection', 'close']);
  if (body !== undefined && !all.some(([k]) => /^(content-length|transfer-encoding)$/i.test(k))) {
    all.push(['Content-Length', String(Buffer.byteLength(body))]);
  }
  const head = `${method} ${target} HTTP/1.1\r\n${all.map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`;
  return Buffer.concat([Buffer.from(head, 'latin1'), body === undefined ? Buffer.alloc(0) : Buffer.from(body)]);
}
