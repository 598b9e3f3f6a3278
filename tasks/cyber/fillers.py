"""Invented product, vendor and component names that fill the generated descriptions.

The names are fictional on purpose: a generated item must be answerable from its text,
never from memory of a real advisory.
"""

from __future__ import annotations

import random

VENDORS: tuple[str, ...] = (
    "Acmera",
    "Brightwave",
    "Corvida",
    "Duneport",
    "Elmstone",
    "Fenwright",
    "Glassfield",
    "Harborline",
    "Ironleaf",
    "Junipero",
    "Kestrel Labs",
    "Lumenor",
    "Marlowe Systems",
    "Northgate",
    "Orchidsoft",
    "Pinecrest",
    "Quillon",
    "Redmarsh",
    "Silverbank",
    "Tidewater",
)

PRODUCTS: tuple[str, ...] = (
    "NetVault Gateway",
    "CloudDesk Portal",
    "OrbitCMS",
    "PayStream Server",
    "DocuFlow",
    "MediTrack EHR",
    "SmartHome Hub",
    "FleetView Tracker",
    "LogSphere",
    "ShopWave Commerce",
    "TeamBoard Wiki",
    "SecureMail Relay",
    "VisionCam NVR",
    "GridPilot SCADA HMI",
    "BuildRunner CI",
    "DataLake Query Engine",
    "PrintMaster Firmware",
    "RoutePoint Router",
    "ChatNest Messenger",
    "ArchiveBox Backup",
)

COMPONENTS: tuple[str, ...] = (
    "web administration console",
    "REST API",
    "file import module",
    "image parser",
    "authentication service",
    "report generator",
    "update agent",
    "plugin loader",
    "session manager",
    "search endpoint",
    "configuration backup feature",
    "network packet decoder",
    "template renderer",
    "user profile page",
    "export service",
    "license check routine",
    "firmware update handler",
    "message queue consumer",
)

PARAMETERS: tuple[str, ...] = (
    "name",
    "id",
    "q",
    "redirect",
    "file",
    "path",
    "template",
    "callback",
    "sort",
    "filter",
    "url",
    "user",
)


def random_version(rng: random.Random) -> str:
    """A plausible version string such as ``4.12.3``."""
    return f"{rng.randint(1, 12)}.{rng.randint(0, 20)}.{rng.randint(0, 9)}"


def product_name(rng: random.Random) -> str:
    """A vendor and product, such as ``Northgate OrbitCMS``."""
    return f"{rng.choice(VENDORS)} {rng.choice(PRODUCTS)}"
