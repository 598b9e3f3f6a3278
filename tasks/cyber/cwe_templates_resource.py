"""Description templates for information-exposure, storage, permission and resource weaknesses.

Same shape as ``cwe_templates_code``; placeholders ``{component}``, ``{param}``, ``{product}``.
"""

from __future__ import annotations

from tasks.cyber.cwe_template_types import CweTemplates, Ticket

RESOURCE_TEMPLATES: tuple[CweTemplates, ...] = (
    CweTemplates(
        532,
        (
            "writes full request bodies, including passwords, to the debug log of the {component}",
            "logs the bearer token of every API call at info level",
            "records credit card numbers in plain text in the transaction log",
        ),
        (
            Ticket(
                "Passwords appear in application.log",
                ("Log in to the {component}.", "Open the application log."),
                "The log contains the user's password in the logged request body.",
            ),
            Ticket(
                "Bearer tokens logged for each request",
                ("Call any API endpoint.", "Inspect the access log."),
                "The full Authorization header with the token is logged.",
            ),
        ),
    ),
    CweTemplates(
        209,
        (
            (
                "returns detailed stack traces, including SQL statements and file paths, in error responses of the "
                "{component}"
            ),
            "shows database connection strings in the error page when a query fails",
            "reveals internal host names and library versions in verbose error messages to unauthenticated users",
        ),
        (
            Ticket(
                "Error page shows a full stack trace",
                ("Send an invalid value in the {param} parameter.",),
                "The response shows a stack trace with the SQL query, source paths and framework version.",
            ),
            Ticket(
                "Failed query exposes the connection string",
                ("Trigger a database timeout.",),
                "The error message contains the database host, user name and password.",
            ),
        ),
    ),
    CweTemplates(
        916,
        (
            "hashes user passwords in the {component} with a single round of unsalted SHA-1, which is fast to crack",
            "stores passwords as plain MD5 hashes without salt or key stretching",
            "uses a fast hash with a fixed salt for passwords instead of a slow key-derivation function",
        ),
        (
            Ticket(
                "Password hashes are unsalted SHA-1",
                ("Inspect the users table of the {component}.",),
                (
                    "Hashes are 40-character SHA-1 digests; identical passwords have identical hashes and crack in "
                    "seconds."
                ),
            ),
            Ticket(
                "Password storage uses MD5",
                ("Dump a test account's stored password.",),
                "The stored value is the MD5 of the password with no salt or iterations.",
            ),
        ),
    ),
    CweTemplates(
        276,
        (
            (
                "installs its program directory with write permission for all users, so unprivileged users can replace "
                "the service binary"
            ),
            "creates its configuration files with mode 0666 by default",
            "sets default permissions on the shared folder of the {component} that let every local user modify it",
        ),
        (
            Ticket(
                "Service binary is writable by everyone",
                ("Install the {component} with default settings.", "Check the permissions of its program folder."),
                "Everyone has write access; a normal user can replace the executable run by the SYSTEM service.",
            ),
            Ticket(
                "Config files world-writable after install",
                ("Run ls -l on the configuration directory.",),
                "The files are -rw-rw-rw-, so any local user can change them.",
            ),
        ),
    ),
    CweTemplates(
        770,
        (
            "allocates a buffer of the size declared in the request header of the {component} without any upper limit",
            "accepts an unlimited number of simultaneous connections and allocates memory for each",
            "stores every uploaded chunk in memory without a quota, letting one client exhaust the server",
        ),
        (
            Ticket(
                "Declared length of 4 GB allocates 4 GB",
                ("Send a request whose header declares a 4 GB body to the {component}.",),
                "The server allocates the full size immediately and is killed for lack of memory.",
            ),
            Ticket(
                "Opening many connections exhausts memory",
                ("Open 100,000 idle connections.",),
                "Each connection reserves a large buffer and the service runs out of memory; there is no limit.",
            ),
        ),
    ),
    CweTemplates(
        1333,
        (
            (
                "validates the {param} field with a regular expression that exhibits catastrophic backtracking on "
                "crafted input"
            ),
            (
                "uses the pattern ^(a+)+$ to check identifiers, so a long string of a's followed by ! takes "
                "exponential time"
            ),
            "matches email addresses with a nested-quantifier regex that freezes the worker on specific inputs",
        ),
        (
            Ticket(
                "Validation takes minutes for a 40-character input",
                ("Submit 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!' as the {param}.",),
                "The worker uses 100% CPU for minutes inside the regex engine.",
            ),
            Ticket(
                "Email check hangs the server",
                ("Enter a long crafted address with repeated dots into the signup form.",),
                "The request never completes because the regular expression backtracks exponentially.",
            ),
        ),
    ),
    CweTemplates(
        427,
        (
            (
                "loads a DLL from the current working directory before the system directory, so a malicious library "
                "next to a document is loaded"
            ),
            "searches an attacker-writable folder in its library path when the {component} starts",
            "includes the current directory in the PATH used to start helper programs",
        ),
        (
            Ticket(
                "Planted version.dll is loaded from the download folder",
                ("Place a crafted version.dll next to the installer.", "Run the installer."),
                "The crafted DLL is loaded and its code runs with the installer's privileges.",
            ),
            Ticket(
                "Helper binary resolved from the working directory",
                ("Put an executable named 'gpg' in the project folder.", "Run the {component} from that folder."),
                "The planted program is executed instead of the system one.",
            ),
        ),
    ),
    CweTemplates(
        1021,
        (
            (
                "does not send X-Frame-Options or a frame-ancestors policy, so the {component} can be framed by other "
                "sites to trick users into clicking"
            ),
            "allows its payment confirmation page to be embedded in an invisible iframe",
            "lets third-party pages overlay its settings page in a frame and capture clicks",
        ),
        (
            Ticket(
                "Settings page can be framed by another site",
                ("Create a page that loads the {component} in a transparent iframe over a fake button.",),
                "Clicks on the fake button toggle settings in the framed page; no framing protection headers are sent.",
            ),
            Ticket(
                "Payment confirm button can be clickjacked",
                ("Embed the confirmation page in an iframe with opacity 0.",),
                "A user clicking the decoy confirms the payment.",
            ),
        ),
    ),
)
