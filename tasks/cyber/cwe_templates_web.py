"""Description templates for injection and web weaknesses.

Same shape as ``cwe_templates_code``; placeholders ``{component}``, ``{param}``, ``{product}``.
"""

from __future__ import annotations

from tasks.cyber.cwe_template_types import CweTemplates, Ticket

WEB_TEMPLATES: tuple[CweTemplates, ...] = (
    CweTemplates(
        79,
        (
            (
                "reflects the {param} parameter into the HTML of the {component} without encoding, so a crafted link "
                "runs attacker JavaScript in the victim's browser"
            ),
            (
                "stores user profile text and renders it to other users without escaping, letting script tags execute "
                "in their sessions"
            ),
            "inserts the value of the {param} query parameter into an inline script block without escaping quotes",
        ),
        (
            Ticket(
                "Script in the {param} field runs for every visitor",
                (
                    "Set the {param} field to <script>alert(document.cookie)</script>.",
                    "Open the {component} as another user.",
                ),
                "An alert with the other user's cookies appears; the value is rendered as HTML instead of text.",
            ),
            Ticket(
                "Search term is echoed unescaped on the results page",
                ('Search for "><img src=x onerror=alert(1)>.',),
                "The onerror handler fires in the browser because the term is reflected into the page verbatim.",
            ),
        ),
    ),
    CweTemplates(
        89,
        (
            (
                "concatenates the {param} parameter into a SQL query in the {component}, allowing attackers to alter "
                "the query and read the database"
            ),
            (
                "builds the ORDER BY clause from the sort field without parameterization, enabling injection of "
                "arbitrary SQL"
            ),
            (
                "uses string formatting to insert the login name into a SELECT statement, so a quote character changes "
                "the query logic"
            ),
        ),
        (
            Ticket(
                "Quote in the {param} parameter causes a database syntax error",
                ("Request the {component} with {param}=1' OR '1'='1.",),
                (
                    "All rows of the table are returned; with a lone quote the page shows 'You have an error in your "
                    "SQL syntax'."
                ),
            ),
            Ticket(
                "UNION SELECT in the search box returns the users table",
                ("Search for x' UNION SELECT username, password FROM users--.",),
                "Usernames and password hashes are listed in the search results.",
            ),
        ),
    ),
    CweTemplates(
        78,
        (
            (
                "passes the {param} parameter to a shell command in the {component} without sanitization, allowing "
                "execution of arbitrary OS commands"
            ),
            (
                "builds a ping command line from the host field and runs it through /bin/sh, so shell metacharacters "
                "run extra commands"
            ),
            (
                "calls system() with a file name taken from the request, letting semicolons and backticks execute "
                "commands on the host"
            ),
        ),
        (
            Ticket(
                "Diagnostic page runs injected shell commands",
                ("Enter 127.0.0.1; id in the host field of the {component}.", "Submit the ping form."),
                "The output shows uid=0(root) gid=0(root) after the ping results.",
            ),
            Ticket(
                "Backticks in the {param} name execute on the server",
                ("Upload a file named `touch /tmp/pwned`.txt.",),
                "The file /tmp/pwned appears on the server; the name is expanded by the shell.",
            ),
        ),
    ),
    CweTemplates(
        94,
        (
            (
                "evaluates the {param} expression with eval() in the {component}, so an attacker can run arbitrary "
                "code in the interpreter"
            ),
            (
                "writes user-supplied text into a generated source file that is then compiled and loaded by the "
                "application"
            ),
            (
                "passes a formula from the spreadsheet import to the scripting engine without restriction, executing "
                "attacker-written code"
            ),
        ),
        (
            Ticket(
                "Calculator field executes Python code",
                ("Enter __import__('os').system('id') as the {param}.",),
                "The server runs the command; the expression is passed to eval() unchanged.",
            ),
            Ticket(
                "Imported rule file injects code into the generated module",
                ("Import a rule whose name contains '); os.remove(\"x\"); ('.", "Trigger the rule compilation."),
                "The generated module contains and executes the injected statement.",
            ),
        ),
    ),
    CweTemplates(
        22,
        (
            (
                "uses the {param} parameter to build a file path in the {component} without removing '../' sequences, "
                "letting attackers read files outside the web root"
            ),
            (
                "joins an archive entry name with the extraction directory without normalization, so entries named "
                "../../etc/cron.d/x escape it"
            ),
            (
                "serves downloads by concatenating the requested name to the storage folder, allowing traversal to "
                "arbitrary files"
            ),
        ),
        (
            Ticket(
                "Download endpoint returns /etc/passwd",
                ("Request the {component} with {param}=../../../../etc/passwd.",),
                "The response contains the contents of /etc/passwd.",
            ),
            Ticket(
                "Zip entries with ../ are written outside the target folder",
                ("Upload a zip containing an entry named ../../evil.sh.", "Extract it with the {component}."),
                "evil.sh is written two directories above the extraction folder.",
            ),
        ),
    ),
    CweTemplates(
        611,
        (
            (
                "parses uploaded XML in the {component} with external entity resolution enabled, so a DOCTYPE can read "
                "local files"
            ),
            (
                "accepts SOAP requests whose DTD defines an external entity pointing to a local file, and returns its "
                "contents"
            ),
            (
                "configures the XML parser without disabling DTDs, letting documents fetch URLs and files through "
                "entity references"
            ),
        ),
        (
            Ticket(
                "XML import includes the contents of local files",
                ('Upload <!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/hostname">]><x>&e;</x>.',),
                "The imported record shows the server's hostname; the entity was resolved from the local file.",
            ),
            Ticket(
                "SOAP request makes the server fetch an attacker URL",
                ("Send a SOAP body with an entity referencing http://attacker.example/x.",),
                "The attacker's server receives a request from the {component} while the XML is parsed.",
            ),
        ),
    ),
    CweTemplates(
        918,
        (
            (
                "fetches the URL given in the {param} parameter from the server side without restriction, letting "
                "attackers reach internal services"
            ),
            "downloads an avatar from a user-supplied address, which can point at the cloud metadata endpoint",
            "proxies webhook test requests to any host, including 127.0.0.1 and private network addresses",
        ),
        (
            Ticket(
                "Image preview fetches the cloud metadata service",
                ("Set the {param} to http://169.254.169.254/latest/meta-data/.",),
                "The preview shows the instance metadata, including temporary credentials.",
            ),
            Ticket(
                "Webhook tester reaches the internal admin port",
                ("Configure a webhook to http://127.0.0.1:8080/admin.", "Press 'Send test'."),
                "The response of the internal admin interface is displayed to the user.",
            ),
        ),
    ),
    CweTemplates(
        352,
        (
            (
                "does not verify an anti-forgery token on state-changing requests in the {component}, so a malicious "
                "page can submit them with the victim's session"
            ),
            (
                "accepts password-change requests authenticated only by the session cookie, letting another site "
                "trigger them"
            ),
            (
                "performs account deletion on a simple GET request without any token, which can be triggered by an "
                "embedded image"
            ),
        ),
        (
            Ticket(
                "External page can change a logged-in user's email",
                (
                    (
                        "While logged in, open an attacker page containing an auto-submitting form that posts to the "
                        "{component}."
                    ),
                ),
                "The email address is changed without the user's knowledge; no token is checked.",
            ),
            Ticket(
                "Image tag on another site deletes the account",
                ('Visit a forum post containing <img src="https://app.example/account/delete">.',),
                "The account is deleted because the request carries the session cookie and needs no token.",
            ),
        ),
    ),
    CweTemplates(
        601,
        (
            (
                "redirects users to the address in the {param} parameter after login without validating it, enabling "
                "phishing through trusted links"
            ),
            (
                "uses the return URL from the query string in a Location header without checking that it stays on the "
                "same site"
            ),
            "forwards users to any domain named in the next parameter of the logout endpoint",
        ),
        (
            Ticket(
                "Login page sends users to an external site",
                ("Open https://app.example/login?{param}=https://evil.example.", "Log in."),
                "After login the browser is redirected to evil.example.",
            ),
            Ticket(
                "Logout link can redirect to arbitrary domains",
                ("Visit /logout?next=//attacker.example.",),
                "The user lands on attacker.example, which mimics the login page.",
            ),
        ),
    ),
    CweTemplates(
        434,
        (
            (
                "accepts file uploads in the {component} without checking their type, so a PHP script can be uploaded "
                "and then executed from the uploads folder"
            ),
            (
                "checks only the client-side file extension, letting attackers upload a .jsp web shell that the server "
                "executes"
            ),
            (
                "stores uploaded attachments inside the web root with their original names, including executable "
                "server-side scripts"
            ),
        ),
        (
            Ticket(
                "Uploaded .php avatar is executed by the server",
                ("Upload shell.php as the profile picture in the {component}.", "Open /uploads/shell.php?cmd=id."),
                "The command output is shown; the uploaded script runs on the server.",
            ),
            Ticket(
                "Attachment filter can be bypassed with a .phtml file",
                ("Attach a file named note.phtml containing PHP code.", "Request the attachment URL."),
                "The code executes instead of being downloaded.",
            ),
        ),
    ),
    CweTemplates(
        502,
        (
            (
                "deserializes the {param} cookie with Java native serialization, so a crafted gadget chain executes "
                "code on the server"
            ),
            "unpickles data received from the network in the {component} without any integrity check",
            "loads YAML from user uploads with an unsafe loader that instantiates arbitrary classes",
        ),
        (
            Ticket(
                "Crafted session cookie executes a command on the server",
                ("Generate a ysoserial CommonsCollections payload.", "Send it base64-encoded in the {param} cookie."),
                "The command in the payload runs on the server while the cookie is read.",
            ),
            Ticket(
                "Pickle payload in the sync message runs code",
                ("Send a message whose body is a pickle with a __reduce__ method calling os.system.",),
                "The {component} executes the command while loading the message.",
            ),
        ),
    ),
    CweTemplates(
        1321,
        (
            (
                "merges user JSON into a configuration object without blocking the __proto__ key, so attackers can add "
                "properties to Object.prototype"
            ),
            (
                "recursively assigns nested keys from the {param} query string, including constructor.prototype, "
                "changing behaviour of every object"
            ),
            "copies request body fields into a defaults object using a deep merge that follows __proto__",
        ),
        (
            Ticket(
                "Setting __proto__.isAdmin makes every user an admin",
                ('POST {"__proto__": {"isAdmin": true}} to the settings endpoint of the {component}.',),
                "Every object in the process now has isAdmin === true and all users see admin pages.",
            ),
            Ticket(
                "Query string constructor[prototype] pollutes globals",
                ("Request ?constructor[prototype][polluted]=1.",),
                "({}).polluted evaluates to 1 in the running server.",
            ),
        ),
    ),
    CweTemplates(
        113,
        (
            (
                "copies the {param} parameter into a Set-Cookie header without removing CR and LF characters, allowing "
                "injection of extra headers"
            ),
            "places a user-supplied language value into the Location header, so %0d%0a splits the HTTP response",
            "writes a filename into the Content-Disposition header without stripping newline characters",
        ),
        (
            Ticket(
                "Encoded newline in {param} adds a header to the response",
                ("Request ?{param}=en%0d%0aSet-Cookie:%20admin=1.",),
                "The response contains a separate 'Set-Cookie: admin=1' header.",
            ),
            Ticket(
                "Redirect response split into two responses",
                ("Follow /redirect?to=x%0d%0a%0d%0a<html>injected.",),
                "The body of the redirect contains attacker-controlled HTML after the injected blank line.",
            ),
        ),
    ),
    CweTemplates(
        1336,
        (
            (
                "renders the {param} value as part of a Jinja2 template in the {component}, so template expressions "
                "are evaluated on the server"
            ),
            "builds an email template from a user-supplied subject line and renders it with the template engine",
            "passes the page title from the CMS editor to the template compiler, letting {{ }} expressions run",
        ),
        (
            Ticket(
                "{{7*7}} in the greeting shows 49",
                ("Set the {param} to {{7*7}}.", "Preview the message."),
                "The preview displays 49; further expressions can reach os.popen.",
            ),
            Ticket(
                "Subject line executes template code",
                ("Create a campaign with subject ${T(java.lang.Runtime).getRuntime().exec('id')}.",),
                "The command runs on the server when the email is rendered.",
            ),
        ),
    ),
)
