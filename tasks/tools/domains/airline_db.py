"""Airline domain data: fare constants, the database records and the seeded generator of the initial database."""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from typing import Any, Literal

from pydantic import BaseModel

from tasks.tools.domains.names import FIRST_NAMES, LAST_NAMES

NOW = datetime(2024, 5, 15, 10, 0)
Cabin = Literal["basic_economy", "economy", "business"]
CABINS: tuple[str, ...] = ("basic_economy", "economy", "business")
FREE_BAGS = {"regular": (0, 1, 2), "silver": (1, 2, 3), "gold": (2, 3, 3)}
BAG_FEE, INSURANCE_FEE, CERTIFICATE_PER_PASSENGER = 50, 30, 100


class FlightDate(BaseModel):
    """One departure of a flight."""

    status: Literal["available", "delayed", "cancelled", "landed"]
    seats: dict[str, int]
    prices: dict[str, float]


class Flight(BaseModel):
    """A scheduled direct flight."""

    flight_number: str
    origin: str
    destination: str
    departure: str
    dates: dict[str, FlightDate]


class PaymentMethod(BaseModel):
    """A payment method; gift cards and certificates carry an amount."""

    id: str
    source: Literal["credit_card", "gift_card", "certificate"]
    amount: float | None = None


class Passenger(BaseModel):
    """A traveller."""

    first_name: str
    last_name: str
    dob: str


class User(BaseModel):
    """A member of the airline's programme."""

    user_id: str
    name: str
    membership: Literal["regular", "silver", "gold"]
    payment_methods: dict[str, PaymentMethod]
    reservations: list[str]


class FlightRef(BaseModel):
    """A flight on a date."""

    flight_number: str
    date: str


class Segment(BaseModel):
    """A booked flight with its price per passenger."""

    flight_number: str
    date: str
    origin: str
    destination: str
    price: float


class Payment(BaseModel):
    """A charge (positive) or refund (negative)."""

    payment_id: str
    amount: float


class Reservation(BaseModel):
    """A booking."""

    reservation_id: str
    user_id: str
    origin: str
    destination: str
    flight_type: Literal["one_way", "round_trip"]
    cabin: Cabin
    flights: list[Segment]
    passengers: list[Passenger]
    payment_history: list[Payment]
    created_at: str
    total_baggages: int
    nonfree_baggages: int
    insurance: Literal["yes", "no"]
    status: Literal["active", "cancelled"] = "active"


class AirlineDB(BaseModel):
    """The airline database."""

    flights: dict[str, Flight]
    users: dict[str, User]
    reservations: dict[str, Reservation]
    certificates_sent: list[dict[str, Any]] = []


AIRPORTS = {
    "SFO": "San Francisco",
    "JFK": "New York JFK",
    "ORD": "Chicago O'Hare",
    "SEA": "Seattle",
    "BOS": "Boston",
    "DEN": "Denver",
    "ATL": "Atlanta",
    "LAX": "Los Angeles",
}
DATES = tuple(f"2024-05-{d:02d}" for d in range(10, 24))


def build_db(seed: int = 11) -> dict[str, Any]:
    """The airline database, generated deterministically from ``seed``."""
    rng = random.Random(f"airline:{seed}")
    codes = sorted(AIRPORTS)
    flights: dict[str, Any] = {}
    for index, (origin, destination) in enumerate((a, b) for a in codes for b in codes if a != b):
        if rng.random() < 0.45:
            continue
        number = f"HAT{100 + index:03d}"
        base = rng.randrange(80, 300)
        dates = {}
        for date in DATES:
            past = date < f"{NOW:%Y-%m-%d}"
            status = "landed" if past else rng.choices(["available", "delayed", "cancelled"], [0.85, 0.1, 0.05])[0]
            dates[date] = {
                "status": status,
                "seats": {c: rng.randrange(0, 12) if c == "business" else rng.randrange(2, 40) for c in CABINS},
                "prices": {
                    "basic_economy": float(base),
                    "economy": float(round(base * 1.4)),
                    "business": float(round(base * 3.2)),
                },
            }
        flights[number] = {
            "flight_number": number,
            "origin": origin,
            "destination": destination,
            "departure": f"{rng.randrange(6, 22):02d}:{rng.choice(['00', '15', '30', '45'])}",
            "dates": dates,
        }
    users: dict[str, Any] = {}
    reservations: dict[str, Any] = {}
    numbers = sorted(flights)
    for index in range(20):
        first, last = FIRST_NAMES[(index * 3) % len(FIRST_NAMES)], LAST_NAMES[(index * 11) % len(LAST_NAMES)]
        user_id = f"{first.lower()}_{last.lower()}_{rng.randrange(1000, 9999)}"
        methods = {}
        for source in ["credit_card", *rng.sample(["gift_card", "certificate"], rng.randint(0, 2))]:
            method_id = f"{source}_{rng.randrange(1000000, 9999999)}"
            methods[method_id] = {
                "id": method_id,
                "source": source,
                "amount": None if source == "credit_card" else float(rng.randrange(50, 500)),
            }
        reservation_ids: list[str] = []
        user = {
            "user_id": user_id,
            "name": f"{first} {last}",
            "membership": rng.choice(["regular", "silver", "gold"]),
            "payment_methods": methods,
            "reservations": reservation_ids,
        }
        for _ in range(rng.randint(1, 3)):
            flight = flights[rng.choice(numbers)]
            date = rng.choice(DATES[4:])
            cabin = rng.choice(CABINS)
            passengers = [
                {
                    "first_name": first,
                    "last_name": last,
                    "dob": f"19{rng.randrange(60, 99)}-0{rng.randrange(1, 9)}-1{rng.randrange(0, 9)}",
                }
            ]
            if rng.random() < 0.4:
                passengers.append({"first_name": rng.choice(FIRST_NAMES), "last_name": last, "dob": "2001-04-12"})
            price = flight["dates"][date]["prices"][cabin]
            rid = "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(6))
            created = NOW - timedelta(hours=rng.choice([3, 20, 30, 72, 200]))
            insurance = rng.choice(["yes", "no", "no"])
            reservations[rid] = {
                "reservation_id": rid,
                "user_id": user_id,
                "origin": flight["origin"],
                "destination": flight["destination"],
                "flight_type": "one_way",
                "cabin": cabin,
                "flights": [
                    {
                        "flight_number": flight["flight_number"],
                        "date": date,
                        "origin": flight["origin"],
                        "destination": flight["destination"],
                        "price": price,
                    }
                ],
                "passengers": passengers,
                "payment_history": [
                    {
                        "payment_id": next(m for m in methods if m.startswith("credit_card")),
                        "amount": price * len(passengers)
                        + (INSURANCE_FEE * len(passengers) if insurance == "yes" else 0),
                    }
                ],
                "created_at": f"{created:%Y-%m-%dT%H:%M:%S}",
                "total_baggages": 0,
                "nonfree_baggages": 0,
                "insurance": insurance,
            }
            reservation_ids.append(rid)
        users[user_id] = user
    return {"flights": flights, "users": users, "reservations": reservations}
