"""Description templates for access-control, authentication and cryptography weaknesses.

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
)
