from django.urls import path

from . import desk, desk_households, ledger_views, member_page, statistics

app_name = "lending"

urlpatterns = [
    path("desk/", desk.desk, name="desk"),
    # A barcode may hold any character the admin accepts, "/" too (S/47/00).
    path("desk/copies/<path:barcode>/", desk.desk_copy, name="desk-copy"),
    path("desk/households/new/", desk_households.household_new, name="household-new"),
    path("desk/household/edit/", desk_households.household_edit, name="household-edit"),
    path("desk/household/renew/", desk_households.household_renew, name="household-renew"),
    path("desk/household/members/new/", desk_households.member_add, name="member-new"),
    path("my-loans/", member_page.link_request, name="member-link"),
    path("my-loans/<str:token>/", member_page.member_page, name="member-page"),
    path(
        "desk/households/<path:card>/ledger/",
        ledger_views.household_ledger,
        name="household-ledger",
    ),
    path("desk/statistics/", statistics.statistics_page, name="statistics"),
    path("desk/statistics/<slug:table>.csv", statistics.statistics_csv, name="statistics-csv"),
]
