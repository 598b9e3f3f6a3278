"""Description templates for access-control, cryptography, information-exposure and resource weaknesses.

Same shape as ``cwe_templates_code``; placeholders ``{component}``, ``{param}``, ``{product}``.
"""

from __future__ import annotations

from tasks.cyber.cwe_template_types import CweTemplates, Ticket

ACCESS_TEMPLATES: tuple[CweTemplates, ...] = (
    CweTemplates(
        306,
        (
            (
                "exposes the firmware upload function of the {component} without requiring any login, so anyone on the "
                "network can replace the firmware"
            ),
            (
                "offers a factory-reset endpoint that performs the reset without checking whether the caller is "
                "authenticated"
            ),
            "allows the user-management API to create administrator accounts without any authentication",
        ),
        (
            Ticket(
                "Firmware can be flashed without logging in",
                ("Without a session, POST a firmware image to the {component}.",),
                "The device accepts and installs the image; no credentials are requested at any point.",
            ),
            Ticket(
                "Reset endpoint works for anonymous users",
                ("Send POST /api/reset with no cookies or tokens.",),
                "The device resets to factory settings.",
            ),
        ),
    ),
    CweTemplates(
        862,
        (
            (
                "lets any logged-in user call the administrative export function of the {component}, because the "
                "handler never checks the caller's role"
            ),
            (
                "performs the delete-project action for any authenticated user without checking whether the user may "
                "modify that project"
            ),
            "exposes the billing settings API to all accounts, as no authorization check is performed on the endpoint",
        ),
        (
            Ticket(
                "Regular user can download the full user export",
                ("Log in as a normal user.", "Open /admin/export in the {component}."),
                "The export of all accounts downloads; the endpoint does not check the role at all.",
            ),
            Ticket(
                "Viewer role can delete projects",
                ("Log in with a read-only viewer account.", "Send DELETE /api/projects/42."),
                "The project is deleted although the viewer role should not have this permission.",
            ),
        ),
    ),
    CweTemplates(
        639,
        (
            (
                "returns invoices by the numeric id in the {param} parameter without checking that the invoice belongs "
                "to the requesting user"
            ),
            (
                "lets users change the account number in the request of the {component} to view other customers' "
                "statements"
            ),
            "uses a sequential document key supplied by the client to look up records, exposing other tenants' files",
        ),
        (
            Ticket(
                "Changing the invoice id shows other customers' invoices",
                ("Log in as customer A and open /invoices?{param}=1001.", "Change the value to 1002."),
                "Customer B's invoice is displayed; the id is trusted without an ownership check.",
            ),
            Ticket(
                "Another tenant's file is served by incrementing the key",
                ("Download your document with key 5531.", "Request key 5532."),
                "A document from a different tenant is returned.",
            ),
        ),
    ),
    CweTemplates(
        798,
        (
            "contains a hard-coded administrator password in the {component} that cannot be changed by the owner",
            "embeds a fixed API key in the firmware that grants access to the management service of every device",
            "ships with a built-in service account whose credentials are compiled into the binary",
        ),
        (
            Ticket(
                "Undocumented support account works on every device",
                ("Log in to the {component} with user 'support' and password 'Sup3r!2019'.",),
                "Access is granted on all tested units; the credentials are in the firmware and cannot be changed.",
            ),
            Ticket(
                "Static API key found in the mobile app grants admin access",
                ("Decompile the app and extract the key string.", "Call the management API with it."),
                "Full administrative access is granted for any installation.",
            ),
        ),
    ),
    CweTemplates(
        307,
        (
            "does not limit failed login attempts to the {component}, allowing unlimited password guessing",
            (
                "lets attackers try any number of one-time codes against the verification endpoint without lockout or "
                "delay"
            ),
            "performs no throttling on the PIN entry of the API, so all 10,000 PINs can be tried in minutes",
        ),
        (
            Ticket(
                "Ten thousand wrong passwords in a row, no lockout",
                ("Run a script that posts wrong passwords to the {component} login form.",),
                "All attempts are processed at full speed; the account is never locked and no delay is added.",
            ),
            Ticket(
                "OTP can be brute-forced",
                ("Request a login code.", "Submit codes 000000 to 999999 in sequence."),
                "The correct code is eventually accepted; nothing stops repeated guesses.",
            ),
        ),
    ),
    CweTemplates(
        384,
        (
            (
                "keeps the same session identifier after login in the {component}, so an attacker who set the session "
                "id beforehand takes over the authenticated session"
            ),
            "accepts a session id supplied in the URL and does not issue a new one at authentication",
            "reuses the pre-login session cookie for the authenticated session",
        ),
        (
            Ticket(
                "Session cookie does not change at login",
                ("Note the session cookie before logging in.", "Log in to the {component}.", "Compare the cookie."),
                "The cookie value is identical, so a cookie planted by someone else becomes an authenticated session.",
            ),
            Ticket(
                "Session id from the link is kept after authentication",
                ("Open a link containing ;jsessionid=ATTACKER.", "Log in."),
                "The attacker can use the session id ATTACKER to access the victim's account.",
            ),
        ),
    ),
    CweTemplates(
        613,
        (
            (
                "does not invalidate session tokens on logout in the {component}, so captured tokens remain valid "
                "indefinitely"
            ),
            "issues API tokens without an expiry time that keep working after the user's password is changed",
            "leaves remember-me sessions active for years without any timeout",
        ),
        (
            Ticket(
                "Token still works after logout",
                ("Log in and copy the bearer token.", "Log out.", "Call the {component} with the old token."),
                "The call succeeds; the token was never invalidated.",
            ),
            Ticket(
                "Sessions never time out",
                ("Log in and leave the browser idle for a week.",),
                "The session is still active and no re-authentication is required.",
            ),
        ),
    ),
    CweTemplates(
        640,
        (
            (
                "lets users reset passwords by answering a security question whose answer is easy to look up, without "
                "any further verification"
            ),
            (
                "sends the password reset link to an email address taken from the {param} field of the request instead "
                "of the address on file"
            ),
            "generates password reset tokens that never expire and can be reused",
        ),
        (
            Ticket(
                "Password reset email can be redirected to the attacker",
                (
                    (
                        "Request a reset for the victim and change the {param} field in the request to "
                        "attacker@example.com."
                    ),
                ),
                "The reset link for the victim's account arrives in the attacker's mailbox.",
            ),
            Ticket(
                "Reset link works repeatedly months later",
                ("Use an old password reset link twice.",),
                "Both uses succeed; the token is never invalidated.",
            ),
        ),
    ),
    CweTemplates(
        327,
        (
            (
                "encrypts stored credentials in the {component} with DES in ECB mode, a broken algorithm that can be "
                "brute-forced"
            ),
            "protects backups with RC4 and a short key, which is cryptographically weak",
            "signs update packages with MD5, so collisions allow forged packages",
        ),
        (
            Ticket(
                "Backups encrypted with DES-ECB",
                ("Inspect the backup format produced by the {component}.",),
                "Identical plaintext blocks produce identical ciphertext blocks; the cipher is single DES in ECB mode.",
            ),
            Ticket(
                "Update signature uses MD5",
                ("Check the signature field of an update package.",),
                "The signature is an MD5 digest; a colliding package with different content passes verification.",
            ),
        ),
    ),
    CweTemplates(
        295,
        (
            (
                "disables TLS certificate verification when the {component} connects to the update server, allowing "
                "man-in-the-middle attacks"
            ),
            "accepts any certificate, including self-signed ones, when the mobile client connects to the API",
            "does not check that the server certificate's hostname matches the host being contacted",
        ),
        (
            Ticket(
                "Client accepts a self-signed certificate without warning",
                ("Intercept the traffic of the {component} with a proxy using a self-signed certificate.",),
                "The connection succeeds and all traffic can be read and modified.",
            ),
            Ticket(
                "Hostname mismatch is ignored",
                ("Serve a valid certificate for other.example to the client.",),
                "The client continues the TLS session although the name does not match.",
            ),
        ),
    ),
    CweTemplates(
        319,
        (
            "sends user credentials from the {component} over plain HTTP, so anyone on the network path can read them",
            "transmits session tokens to the mobile backend without encryption",
            "exchanges configuration data, including passwords, over an unencrypted telnet channel",
        ),
        (
            Ticket(
                "Login form posts passwords over HTTP",
                ("Capture traffic while logging in to the {component}.",),
                "The password is visible in clear text in the captured HTTP request.",
            ),
            Ticket(
                "Sync protocol sends tokens unencrypted",
                ("Run a packet capture during synchronization.",),
                "Session tokens appear in clear text in the capture.",
            ),
        ),
    ),
    CweTemplates(
        312,
        (
            "stores user passwords in clear text in the configuration file of the {component}",
            "keeps API keys unencrypted in the local SQLite database of the app",
            "writes the database password in plain text to a world-readable settings file",
        ),
        (
            Ticket(
                "Passwords readable in config.ini",
                ("Open the configuration file written by the {component}.",),
                "All account passwords are listed in clear text.",
            ),
            Ticket(
                "Tokens stored unencrypted on the phone",
                ("Copy the app's database from a device backup.",),
                "Access tokens are stored as plain text.",
            ),
        ),
    ),
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
