/** What `npm run cli -- --help` prints, and what follows a usage error (src/cli/commands.ts). */
export const USAGE = `Usage: npm run cli -- <command> [options]

  accounts create --name <name> [--email <email>] [--json]
              create an account with a first API key and a join code; with --email, also a one-time
              link for that person to set a portal password
  accounts list [--json]
  users invite --account <accountId> [--email <email>] [--json]
              print a one-time link into the account's portal (72 hours; works once); it sets the
              password of the account's user with that email, or makes one
  keys create --account <accountId> [--name <name>] [--json]
  keys list --account <accountId> [--json]
  keys revoke --account <accountId> --key <keyId or prefix>
  numbers add --account <accountId> --phone <+number> [--phone-number-id <id>] [--token <token>]
              [--waba-id <id>] [--no-session-check] [--json]
              (with NETWORK=simulator the phone-number id and token default to the simulator's;
               with NETWORK=cloud, templates and flows need the number's WhatsApp Business Account id)
  numbers list --account <accountId> [--json]
  numbers throughput --account <accountId> --phone <+number> --per-second <1-1000 | default> [--json]
              (the number's throughput tier on the network, which the gateway paces its sends to)
  numbers messaging-limit --account <accountId> --phone <+number>
              --limit <250 | 1000 | 2000 | 10000 | 100000 | unlimited> [--json]
              (unique users the number may reach in 24 hours; its campaigns pause at it)
  opt-outs list --account <accountId> [--number <+number>] [--user <+number or user id>] [--json]
              (the 200 latest users opted out of the account's marketing, as GET /api/v1/opt-outs lists them)
  simulator token [--json]                   print the token of the simulator's phone page, users and faults
  simulator access-token [--json]            print the Bearer token of the simulated Graph API
  migrate                                    apply database migrations and exit`;
