"""Description templates for memory-safety, numeric and concurrency weaknesses (``cyber-gen/cwe``).

Each CWE has advisory clauses (completing "..., which ...") and bug tickets (title, steps
to reproduce, observed behaviour). Placeholders: ``{component}``, ``{param}``, ``{product}``.
"""

from __future__ import annotations

from tasks.cyber.cwe_template_types import CweTemplates, Ticket

CODE_TEMPLATES: tuple[CweTemplates, ...] = (
    CweTemplates(
        787,
        (
            (
                "copies a length-prefixed record from incoming requests into a fixed 256-byte stack buffer without "
                "checking the length, so an oversized record overwrites adjacent memory"
            ),
            (
                "writes decoded pixel rows past the end of the heap buffer it allocated when the declared image height "
                "is smaller than the real one"
            ),
            (
                "uses an attacker-supplied index to store a value into an array in the {component} without a bounds "
                "check, allowing writes before the start of the array"
            ),
        ),
        (
            Ticket(
                "Crash with corrupted heap metadata after importing a long record",
                (
                    "Create an input file whose first record declares a length of 4096 bytes.",
                    "Import it through the {component}.",
                ),
                (
                    "The process aborts with 'malloc(): corrupted top size'; AddressSanitizer reports a "
                    "heap-buffer-overflow WRITE of size 4096."
                ),
            ),
            Ticket(
                "Stack smashing detected when the {param} field is very long",
                ("Send a request with a {param} value of 2000 'A' characters to the {component}.",),
                (
                    "The service dies with '*** stack smashing detected ***' and the saved return address contains "
                    "0x41414141."
                ),
            ),
        ),
    ),
    CweTemplates(
        125,
        (
            (
                "reads beyond the end of a packet buffer in the {component} when a TLV entry declares a length larger "
                "than the remaining data, disclosing adjacent heap memory"
            ),
            (
                "uses an unchecked offset from the file header to read a table entry, which reads memory outside the "
                "mapped buffer"
            ),
            (
                "parses a string that is not NUL-terminated and keeps reading past the end of the allocation until it "
                "finds a zero byte"
            ),
        ),
        (
            Ticket(
                "Response contains garbage bytes after a truncated TLV",
                (
                    "Send a message with a TLV whose length field is 0xFFFF but carries 4 bytes of data.",
                    "Inspect the echoed value returned by the {component}.",
                ),
                "The reply contains about 64 KB of unrelated memory content; ASan reports heap-buffer-overflow READ.",
            ),
            Ticket(
                "Segfault when the offset table points past the end of the file",
                ("Craft a file whose header offset is larger than the file size.", "Open it with the {component}."),
                "The parser reads from an address beyond the mapped file and crashes with SIGSEGV; no data is written.",
            ),
        ),
    ),
    CweTemplates(
        416,
        (
            (
                "frees a session object when the connection closes but a pending callback in the {component} still "
                "dereferences the freed pointer"
            ),
            (
                "releases a DOM node during event dispatch while the {component} keeps using its dangling reference, "
                "so freed memory is reused"
            ),
            (
                "returns a cached object to the pool on error and then continues to access it after it has been handed "
                "to another request"
            ),
        ),
        (
            Ticket(
                "Crash in callback after client disconnects mid-request",
                ("Start a long upload to the {component}.", "Close the TCP connection before the server responds."),
                (
                    "ASan reports heap-use-after-free: the object was freed by the close handler and then read by the "
                    "completion callback."
                ),
            ),
            Ticket(
                "Random crashes when removing an element inside its own event handler",
                ("Register an onchange handler that removes its own element.", "Trigger the change event."),
                (
                    "The renderer crashes in the dispatch loop; the element's memory has already been freed and is "
                    "accessed again."
                ),
            ),
        ),
    ),
    CweTemplates(
        415,
        (
            (
                "frees the same buffer twice when an error occurs after cleanup in the {component}, corrupting the "
                "allocator state"
            ),
            "calls free() on a header structure both in the parse-error path and again in the common cleanup path",
            "releases the decompression context in the {component} on failure and the caller releases it a second time",
        ),
        (
            Ticket(
                "'double free detected in tcache' when a malformed header is rejected",
                ("Send a request with an invalid {param} header to the {component}.",),
                (
                    "glibc aborts with 'free(): double free detected in tcache 2'; the buffer is released by both the "
                    "error path and the cleanup path."
                ),
            ),
            Ticket(
                "Allocator abort after a failed decompression",
                ("Upload a truncated compressed archive.", "Wait for the {component} to report the error."),
                "The process aborts inside free(); the same context pointer is freed twice.",
            ),
        ),
    ),
    CweTemplates(
        476,
        (
            (
                "dereferences the result of a lookup in the {component} without checking whether it is NULL when the "
                "requested key is missing"
            ),
            (
                "accesses a field of an optional configuration section that is NULL when the section is absent, "
                "crashing the daemon"
            ),
            (
                "does not check the return value of an allocation before using it, so a failed allocation leads to a "
                "NULL dereference"
            ),
        ),
        (
            Ticket(
                "Daemon crashes on a request for an unknown {param}",
                ("Send a request whose {param} refers to a record that does not exist.",),
                "The daemon segfaults at address 0x0000000000000008 while reading a field of the missing record.",
            ),
            Ticket(
                "Crash when the optional logging section is removed from the config",
                ("Delete the [logging] section from the configuration file.", "Restart the {component}."),
                "The service crashes at startup with a segmentation fault reading address 0x0.",
            ),
        ),
    ),
    CweTemplates(
        190,
        (
            (
                "multiplies the width and height from the image header in 32-bit arithmetic, which wraps around and "
                "allocates a buffer that is far too small"
            ),
            (
                "adds a user-supplied length to an offset without checking for wraparound, so the size check in the "
                "{component} passes for huge values"
            ),
            (
                "computes the number of elements times the element size in the {component} with an unsigned int that "
                "overflows for large counts"
            ),
        ),
        (
            Ticket(
                "Huge image dimensions lead to a tiny allocation",
                ("Create an image with width 65536 and height 65537.", "Open it in the {component}."),
                "The computed buffer size wraps around to a small value and later copies run past the allocation.",
            ),
            Ticket(
                "Length check bypassed with a count of 0x40000001",
                ("Send an array with a declared count of 1073741825 four-byte elements.",),
                (
                    "count * 4 wraps to 4, the size check passes, and the {component} processes far more data than "
                    "allocated."
                ),
            ),
        ),
    ),
    CweTemplates(
        134,
        (
            "passes the user-supplied {param} value directly as the format string of a printf-style logging call",
            (
                "uses the device name received from the network as the format argument of syslog(), so %n and %x "
                "sequences are interpreted"
            ),
            "builds an error message by calling sprintf with the attacker-controlled message as the format string",
        ),
        (
            Ticket(
                "Log line shows stack values when the {param} contains %x",
                ("Submit '%x.%x.%x.%x' as the {param}.", "Look at the log written by the {component}."),
                "The log contains hexadecimal stack values instead of the literal text; '%n' crashes the process.",
            ),
            Ticket(
                "Device name '%s%s%s' crashes the service",
                ("Rename a device to '%s%s%s%s'.", "Trigger a status report."),
                "The service crashes inside vfprintf because the name is used as a format string.",
            ),
        ),
    ),
    CweTemplates(
        401,
        (
            (
                "allocates a buffer for every malformed request in the {component} and never frees it on the error "
                "path, so memory grows without bound"
            ),
            "leaks the parsed header list each time a connection is rejected, eventually exhausting process memory",
            (
                "does not release the temporary context created for each failed login, so repeated attempts slowly "
                "consume all memory"
            ),
        ),
        (
            Ticket(
                "Resident memory grows by 1 MB per rejected request",
                ("Send malformed requests to the {component} in a loop.", "Watch the process RSS."),
                (
                    "Memory usage climbs steadily and is never returned; Valgrind reports 'definitely lost' blocks "
                    "from the error path."
                ),
            ),
            Ticket(
                "Service OOM-killed after a night of failed logins",
                ("Run a script that performs failed logins every second for several hours.",),
                "The process is killed by the OOM killer; allocations made per failed attempt are never freed.",
            ),
        ),
    ),
    CweTemplates(
        369,
        (
            "divides by the sample rate taken from the file header without checking for zero, crashing the {component}",
            "computes an average by dividing by a user-supplied count that may be zero",
            "uses the block size field of the request as a divisor, so a zero value raises an arithmetic exception",
        ),
        (
            Ticket(
                "SIGFPE when the header declares a sample rate of 0",
                ("Create a media file with a sample rate of 0.", "Open it with the {component}."),
                "The process terminates with 'Floating point exception (core dumped)' in the duration calculation.",
            ),
            Ticket(
                "Statistics endpoint crashes when {param}=0",
                ("Request the statistics page with {param}=0.",),
                "The worker crashes with ZeroDivisionError and the request returns 500.",
            ),
        ),
    ),
    CweTemplates(
        835,
        (
            (
                "loops forever in the {component} when a chunk header declares a length of zero, because the parser "
                "never advances"
            ),
            (
                "follows a chain of record offsets that can point back to an earlier record, so a crafted file makes "
                "the loop never terminate"
            ),
            (
                "retries a failed read in a loop whose exit condition can never be reached when the peer sends a "
                "specific sequence"
            ),
        ),
        (
            Ticket(
                "CPU stuck at 100% on a zero-length chunk",
                ("Send a stream containing a chunk with length 0 to the {component}.",),
                "The worker thread spins indefinitely at full CPU; the loop never advances past the chunk.",
            ),
            Ticket(
                "Parser hangs on a file whose records reference each other",
                ("Craft a file where record B points back to record A.", "Open it in the {component}."),
                "The parse never finishes and the process must be killed; the exit condition is unreachable.",
            ),
        ),
    ),
    CweTemplates(
        843,
        (
            (
                "casts an object to the wrong class in the {component} when a message carries an unexpected type tag, "
                "so fields are interpreted with the wrong layout"
            ),
            (
                "accesses a variant value as a string even though a crafted input stores an integer there, treating "
                "the integer as a pointer"
            ),
            (
                "confuses two object types sharing a base class during deserialization, letting a crafted input call a "
                "method through the wrong vtable"
            ),
        ),
        (
            Ticket(
                "Integer value interpreted as a pointer when the type tag is changed",
                ("Send a message whose type tag says 'string' but whose payload is an integer.",),
                "The {component} dereferences the integer as a pointer and crashes at an attacker-chosen address.",
            ),
            Ticket(
                "Wrong object type reaches the render path",
                ("Load a document where a shape node is replaced by a text node with the same id.",),
                (
                    "The code casts the text node to a shape and reads fields at the wrong offsets; ASan reports a "
                    "bad-cast."
                ),
            ),
        ),
    ),
    CweTemplates(
        367,
        (
            (
                "checks the permissions of a file path in the {component} and later opens the same path, so a symlink "
                "swapped in between is opened instead"
            ),
            (
                "verifies that a temporary file is owned by the user and then writes to it by name, leaving a window "
                "in which the file can be replaced"
            ),
            (
                "validates a resource with stat() and then uses it with open(), allowing the resource to change "
                "between the check and the use"
            ),
        ),
        (
            Ticket(
                "Symlink swapped between access() and open() lets a user write to /etc/shadow",
                (
                    "Point the upload path at a user-owned file.",
                    "Swap the file for a symlink to a root-owned file right after the check.",
                ),
                "The {component} checks the original file but then writes through the symlink to the protected file.",
            ),
            Ticket(
                "File replaced after ownership check",
                ("Run a loop that replaces the spool file between the ownership check and the write.",),
                "Occasionally the privileged process writes into a file chosen by the attacker.",
            ),
        ),
    ),
)
