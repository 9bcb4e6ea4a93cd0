import net from 'node:net';

/**
 * An IMAP server on 127.0.0.1 (port 0) that only answers enough for a client to try LOGIN, refuses it
 * (or, with `accept`, lets it in: saving a mailbox checks its login), and records the username and
 * password it was given: proof of which password a process read from its secret store, without a real
 * mail server.
 */
export interface LoginRecorder {
  port: number;
  /** username -> every password tried, in order */
  logins: Map<string, string[]>;
  close(): Promise<void>;
}

const unquote = (s: string) => (s.startsWith('"') ? s.slice(1, -1).replace(/\\(.)/g, '$1') : s);

export async function startLoginRecorder(opts: { accept?: boolean } = {}): Promise<LoginRecorder> {
  const logins = new Map<string, string[]>();
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    socket.setEncoding('utf8');
    socket.write('* OK [CAPABILITY IMAP4rev1] recorder ready\r\n');
    let buffer = '';
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      for (let nl = buffer.indexOf('\r\n'); nl >= 0; nl = buffer.indexOf('\r\n')) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 2);
        const [tag, command = ''] = line.split(' ', 2);
        const login = /^\S+ LOGIN ("(?:[^"\\]|\\.)*"|\S+) ("(?:[^"\\]|\\.)*"|\S+)$/i.exec(line);
        if (login) {
          const user = unquote(login[1]);
          logins.set(user, [...(logins.get(user) ?? []), unquote(login[2])]);
          socket.write(opts.accept ? `${tag} OK recorded\r\n` : `${tag} NO [AUTHENTICATIONFAILED] recorded\r\n`);
        } else if (command.toUpperCase() === 'CAPABILITY') {
          socket.write(`* CAPABILITY IMAP4rev1\r\n${tag} OK done\r\n`);
        } else if (command.toUpperCase() === 'LOGOUT') {
          socket.end(`* BYE\r\n${tag} OK bye\r\n`);
        } else {
          socket.write(`${tag} BAD not here\r\n`);
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    logins,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
