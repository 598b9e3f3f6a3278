"""Airline domain: flight search, booking, cancellation under fare rules, changes and compensation."""

from __future__ import annotations

from typing import Any, Literal

from tasks.tools.domains.airline_db import (
    AIRPORTS,
    BAG_FEE,
    CERTIFICATE_PER_PASSENGER,
    INSURANCE_FEE,
    NOW,
    AirlineDB,
    Cabin,
    Flight,
    FlightDate,
    FlightRef,
    Passenger,
    Payment,
    PaymentMethod,
    Reservation,
    Segment,
    User,
)
from tasks.tools.framework.toolkit import ToolError, ToolKind, Toolkit, tool

POLICY = f"""# Airline agent policy
The current time is {NOW:%Y-%m-%d %H:%M}.
- Identify the user by user id and look up their profile before acting.
- Before a booking or change, list the details and get explicit confirmation (a user who says they confirm
  every change they asked for has confirmed).
- Booking: passengers and payment must come from the user; payment methods must be in the profile;
  travel insurance costs ${INSURANCE_FEE} per passenger.
- Cancellation is allowed only if the booking was made within the last 24 hours, or the airline cancelled a
  flight of the reservation, or the cabin is business, or the reservation has travel insurance. Otherwise
  refuse and explain that cancellation is only possible within 24 hours of booking without those conditions.
- Basic economy reservations cannot change flights. Other reservations may change flights (same origin and
  destination) and cabin; the fare difference is charged or refunded to a payment method of the user.
- Free checked bags per passenger: regular members 0/1/2, silver 1/2/3, gold 2/3/3 for basic economy /
  economy / business; each extra bag costs ${BAG_FEE}. Bags can be added, never removed.
- Passenger names and dates of birth may be updated; the number of passengers cannot change.
- Compensation: if a flight of the reservation was cancelled by the airline and the user is silver or gold,
  or has insurance, or flies business, you may send a certificate of ${CERTIFICATE_PER_PASSENGER} per passenger.
  Never offer compensation otherwise.
"""


class AirlineTools(Toolkit):
    """The airline agent's tools."""

    db: AirlineDB

    def _user(self, user_id: str) -> User:
        if user_id not in self.db.users:
            raise ToolError(f"user {user_id} not found")
        return self.db.users[user_id]

    def _reservation(self, reservation_id: str) -> Reservation:
        reservation = self.db.reservations.get(reservation_id)
        if reservation is None:
            raise ToolError(f"reservation {reservation_id} not found")
        if reservation.status != "active":
            raise ToolError(f"reservation {reservation_id} is {reservation.status}")
        return reservation

    def _departure(self, ref: FlightRef) -> tuple[Flight, FlightDate]:
        flight = self.db.flights.get(ref.flight_number)
        if flight is None or ref.date not in flight.dates:
            raise ToolError(f"flight {ref.flight_number} on {ref.date} not found")
        departure = flight.dates[ref.date]
        if departure.status != "available":
            raise ToolError(f"flight {ref.flight_number} on {ref.date} is {departure.status} and cannot be booked")
        return flight, departure

    def _pay(self, user: User, payment_method_id: str, amount: float) -> Payment:
        method = user.payment_methods.get(payment_method_id)
        if method is None:
            raise ToolError(f"payment method {payment_method_id} not found for user {user.user_id}")
        if method.source != "credit_card" and amount > 0:
            if amount > (method.amount or 0) + 1e-9:
                raise ToolError(f"{payment_method_id} has only {method.amount} left; {amount} is needed")
            method.amount = round((method.amount or 0) - amount, 2)
        return Payment(payment_id=payment_method_id, amount=round(amount, 2))

    @tool(ToolKind.READ)
    def get_user_details(self, user_id: str) -> User:
        """Get a user's profile: membership, payment methods and reservation ids.

        Args:
            user_id: The user id, such as 'sara_doe_1234'.
        """
        return self._user(user_id)

    @tool(ToolKind.READ)
    def get_reservation_details(self, reservation_id: str) -> Reservation:
        """Get a reservation's flights, passengers, cabin, bags, insurance and payments.

        Args:
            reservation_id: The six-character reservation id.
        """
        if reservation_id not in self.db.reservations:
            raise ToolError(f"reservation {reservation_id} not found")
        return self.db.reservations[reservation_id]

    @tool(ToolKind.READ)
    def list_all_airports(self) -> dict[str, str]:
        """List the airports served, by IATA code."""
        return dict(AIRPORTS)

    @tool(ToolKind.READ)
    def search_direct_flight(self, origin: str, destination: str, date: str) -> list[dict[str, Any]]:
        """Find direct flights between two airports on a date, with seats left and prices.

        Args:
            origin: IATA code of the origin, such as 'SFO'.
            destination: IATA code of the destination, such as 'JFK'.
            date: The date as YYYY-MM-DD.
        """
        found = []
        for flight in self.db.flights.values():
            if flight.origin == origin and flight.destination == destination and date in flight.dates:
                d = flight.dates[date]
                found.append(
                    {
                        "flight_number": flight.flight_number,
                        "departure": flight.departure,
                        "status": d.status,
                        "seats": d.seats,
                        "prices": d.prices,
                    }
                )
        return found

    @tool(ToolKind.READ)
    def get_flight_status(self, flight_number: str, date: str) -> str:
        """Get a flight's status on a date (available, delayed, cancelled or landed).

        Args:
            flight_number: The flight number, such as 'HAT123'.
            date: The date as YYYY-MM-DD.
        """
        flight = self.db.flights.get(flight_number)
        if flight is None or date not in flight.dates:
            raise ToolError(f"flight {flight_number} on {date} not found")
        return flight.dates[date].status

    @tool(ToolKind.WRITE)
    def book_reservation(
        self,
        user_id: str,
        origin: str,
        destination: str,
        flight_type: Literal["one_way", "round_trip"],
        cabin: Cabin,
        flights: list[FlightRef],
        passengers: list[Passenger],
        payment_method_id: str,
        total_baggages: int,
        nonfree_baggages: int,
        insurance: Literal["yes", "no"],
    ) -> Reservation:
        """Book a reservation and charge it to one payment method.

        Args:
            user_id: The user who books.
            origin: IATA code where the trip starts.
            destination: IATA code where the trip ends (for one way).
            flight_type: 'one_way' or 'round_trip'.
            cabin: 'basic_economy', 'economy' or 'business'.
            flights: Each flight number and date, in travel order.
            passengers: Each passenger's first name, last name and date of birth (YYYY-MM-DD).
            payment_method_id: A payment method of the user.
            total_baggages: Checked bags in total.
            nonfree_baggages: Bags beyond the free allowance (50 dollars each).
            insurance: 'yes' or 'no' (30 dollars per passenger).
        """
        user = self._user(user_id)
        if not flights or not passengers or not 0 <= nonfree_baggages <= total_baggages:
            raise ToolError("a booking needs flights, passengers and 0 <= nonfree_baggages <= total_baggages")
        segments, legs = [], []
        for ref in flights:
            flight, departure = self._departure(ref)
            if departure.seats[cabin] < len(passengers):
                raise ToolError(f"not enough {cabin} seats on {ref.flight_number} {ref.date}")
            legs.append(departure)
            segments.append(
                Segment(
                    flight_number=flight.flight_number,
                    date=ref.date,
                    origin=flight.origin,
                    destination=flight.destination,
                    price=departure.prices[cabin],
                )
            )
        total = sum(s.price for s in segments) * len(passengers) + BAG_FEE * nonfree_baggages
        total += INSURANCE_FEE * len(passengers) if insurance == "yes" else 0
        payment = self._pay(user, payment_method_id, total)
        for departure in legs:
            departure.seats[cabin] -= len(passengers)
        rid = f"NEW{len(self.db.reservations):03d}"
        reservation = Reservation(
            reservation_id=rid,
            user_id=user_id,
            origin=origin,
            destination=destination,
            flight_type=flight_type,
            cabin=cabin,
            flights=segments,
            passengers=passengers,
            payment_history=[payment],
            created_at=f"{NOW:%Y-%m-%dT%H:%M:%S}",
            total_baggages=total_baggages,
            nonfree_baggages=nonfree_baggages,
            insurance=insurance,
        )
        self.db.reservations[rid] = reservation
        user.reservations.append(rid)
        return reservation

    @tool(ToolKind.WRITE)
    def cancel_reservation(self, reservation_id: str) -> Reservation:
        """Cancel a whole reservation and refund every payment to its method.

        Args:
            reservation_id: The reservation id.
        """
        reservation = self._reservation(reservation_id)
        reservation.payment_history += [
            Payment(payment_id=p.payment_id, amount=-p.amount) for p in reservation.payment_history if p.amount > 0
        ]
        reservation.status = "cancelled"
        return reservation

    @tool(ToolKind.WRITE)
    def update_reservation_baggages(
        self, reservation_id: str, total_baggages: int, nonfree_baggages: int, payment_method_id: str
    ) -> Reservation:
        """Set the checked bags of a reservation; extra non-free bags are charged 50 dollars each.

        Args:
            reservation_id: The reservation id.
            total_baggages: New total of checked bags.
            nonfree_baggages: New number of bags beyond the free allowance.
            payment_method_id: Pays for the added non-free bags.
        """
        reservation = self._reservation(reservation_id)
        if (
            total_baggages < reservation.total_baggages
            or nonfree_baggages < reservation.nonfree_baggages
            or nonfree_baggages > total_baggages
        ):
            raise ToolError("bags can only be added, and nonfree_baggages cannot exceed total_baggages")
        extra = BAG_FEE * (nonfree_baggages - reservation.nonfree_baggages)
        if extra:
            reservation.payment_history.append(self._pay(self._user(reservation.user_id), payment_method_id, extra))
        reservation.total_baggages, reservation.nonfree_baggages = total_baggages, nonfree_baggages
        return reservation

    @tool(ToolKind.WRITE)
    def update_reservation_passengers(self, reservation_id: str, passengers: list[Passenger]) -> Reservation:
        """Replace the passenger details of a reservation (the count must stay the same).

        Args:
            reservation_id: The reservation id.
            passengers: Every passenger, in order, with first name, last name and date of birth.
        """
        reservation = self._reservation(reservation_id)
        if len(passengers) != len(reservation.passengers):
            raise ToolError("the number of passengers cannot change")
        reservation.passengers = passengers
        return reservation

    @tool(ToolKind.WRITE)
    def update_reservation_flights(
        self, reservation_id: str, cabin: Cabin, flights: list[FlightRef], payment_method_id: str
    ) -> Reservation:
        """Change the flights and/or cabin of a reservation; the fare difference is charged or refunded.

        Args:
            reservation_id: The reservation id.
            cabin: The cabin for every flight.
            flights: Every flight of the new itinerary (number and date), in order.
            payment_method_id: Pays or receives the fare difference.
        """
        reservation = self._reservation(reservation_id)
        if reservation.cabin == "basic_economy" and [(f.flight_number, f.date) for f in reservation.flights] != [
            (f.flight_number, f.date) for f in flights
        ]:
            raise ToolError("basic economy flights cannot be changed")
        segments, legs = [], []
        for ref in flights:
            flight, departure = self._departure(ref)
            legs.append(departure)
            segments.append(
                Segment(
                    flight_number=flight.flight_number,
                    date=ref.date,
                    origin=flight.origin,
                    destination=flight.destination,
                    price=departure.prices[cabin],
                )
            )
        if (segments[0].origin, segments[-1].destination) != (
            reservation.origin,
            reservation.destination,
        ) and reservation.flight_type == "one_way":
            raise ToolError("the new flights must keep the reservation's origin and destination")
        count = len(reservation.passengers)
        difference = (sum(s.price for s in segments) - sum(s.price for s in reservation.flights)) * count
        reservation.payment_history.append(self._pay(self._user(reservation.user_id), payment_method_id, difference))
        for departure in legs:
            departure.seats[cabin] -= count
        reservation.flights, reservation.cabin = segments, cabin
        return reservation

    @tool(ToolKind.WRITE)
    def send_certificate(self, user_id: str, amount: int) -> str:
        """Send a travel certificate (compensation) to a user.

        Args:
            user_id: The user id.
            amount: The certificate's value in dollars.
        """
        user = self._user(user_id)
        if not 0 < amount <= 1000:
            raise ToolError("a certificate is worth between 1 and 1000 dollars")
        method_id = f"certificate_{len(self.db.certificates_sent) + 1:07d}"
        user.payment_methods[method_id] = PaymentMethod(id=method_id, source="certificate", amount=float(amount))
        self.db.certificates_sent.append({"user_id": user_id, "amount": amount})
        return f"certificate {method_id} of {amount} dollars sent to {user_id}"
