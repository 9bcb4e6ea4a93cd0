// A fixture site in a process of its own, so its work (8 logins at once) does not share the bench's event loop with
// the load generator. argv: the site's name. Prints the site's address and account as one JSON line; exits when its
// stdin closes.
import { startSite, type SiteName } from '../../test/fixtures/sites/index.js';

const site = await startSite(process.argv[2] as SiteName);
const { name, origin, loginUrl, protectedUrl, loggedInText, credentials } = site;
process.stdout.write(`${JSON.stringify({ name, origin, loginUrl, protectedUrl, loggedInText, credentials })}\n`);
process.stdin.resume();
process.stdin.on('end', () => void site.close().then(() => process.exit(0)));
